using System;
using System.Collections.Generic;
using System.Threading;

namespace Dbdf.Tests
{
    /// <summary>
    /// Several threads calling into one handle while another thread disposes it. Each worker repeats its call until
    /// the call throws ObjectDisposedException; a DbdfException is counted and the worker goes on; any other
    /// exception ends the worker and is kept. The disposer waits until every worker has completed a few calls, so
    /// that the dispose lands while they are all busy.
    /// </summary>
    internal sealed class ConcurrentUse
    {
        /// <summary>What one worker saw.</summary>
        internal sealed class Worker
        {
            public string Name;
            public long Successes;
            /// <summary>Calls that threw DbdfException.</summary>
            public long LibraryErrors;
            public readonly List<Status> LibraryStatuses = new List<Status>();
            /// <summary>The ObjectDisposedException that ended the worker, or null.</summary>
            public ObjectDisposedException Disposed;
            /// <summary>Anything else that ended the worker, or null.</summary>
            public Exception Unexpected;
        }

        private const int CallsBeforeDispose = 25;
        /// <summary>A worker that never sees the dispose gives up here instead of running forever.</summary>
        private const long MaximumCalls = 2000000;
        private static readonly TimeSpan Patience = TimeSpan.FromSeconds(60);

        private readonly List<KeyValuePair<string, Action<long>>> calls = new List<KeyValuePair<string, Action<long>>>();

        /// <summary>Adds a worker that runs <paramref name="call"/> with its call number 0, 1, 2, ...</summary>
        public ConcurrentUse Add(string name, Action<long> call)
        {
            calls.Add(new KeyValuePair<string, Action<long>>(name, call));
            return this;
        }

        /// <summary>Runs the workers, disposes with <paramref name="dispose"/> while they run, and returns what each saw.</summary>
        public List<Worker> RunAndDispose(Action dispose)
        {
            List<Worker> workers = new List<Worker>();
            List<Thread> threads = new List<Thread>();
            using (CountdownEvent warmedUp = new CountdownEvent(calls.Count))
            using (ManualResetEventSlim start = new ManualResetEventSlim(false))
            {
                foreach (KeyValuePair<string, Action<long>> call in calls)
                {
                    Worker worker = new Worker { Name = call.Key };
                    Action<long> body = call.Value;
                    workers.Add(worker);
                    Thread thread = new Thread(() => Work(worker, body, start, warmedUp));
                    // A worker stuck in a call must not keep the test process alive.
                    thread.IsBackground = true;
                    threads.Add(thread);
                    thread.Start();
                }
                start.Set();
                // Without every worker warmed up the dispose still happens; the caller's checks then fail.
                warmedUp.Wait(Patience);
                dispose();
                foreach (Thread thread in threads)
                {
                    Assert.True(thread.Join(Patience), "a worker is still running " + Patience + " after the dispose");
                }
            }
            return workers;
        }

        private static void Work(Worker worker, Action<long> body, ManualResetEventSlim start,
                                 CountdownEvent warmedUp)
        {
            start.Wait();
            bool counted = false;
            try
            {
                for (long call = 0; call < MaximumCalls; call++)
                {
                    try
                    {
                        body(call);
                        worker.Successes++;
                    }
                    catch (DbdfException error)
                    {
                        worker.LibraryErrors++;
                        if (!worker.LibraryStatuses.Contains(error.Status))
                        {
                            worker.LibraryStatuses.Add(error.Status);
                        }
                    }
                    if (!counted && worker.Successes + worker.LibraryErrors >= CallsBeforeDispose)
                    {
                        counted = true;
                        warmedUp.Signal();
                    }
                }
            }
            catch (ObjectDisposedException disposed)
            {
                worker.Disposed = disposed;
            }
            catch (Exception unexpected)
            {
                worker.Unexpected = unexpected;
            }
            finally
            {
                if (!counted)
                {
                    warmedUp.Signal();
                }
            }
        }

        /// <summary>
        /// Every worker ended on the dispose (the disposed path was taken, not merely survived) after completing calls
        /// before it, and nothing but ObjectDisposedException and DbdfException came out of the handle.
        /// </summary>
        public static void AssertEveryWorkerSawTheDispose(List<Worker> workers)
        {
            foreach (Worker worker in workers)
            {
                Assert.True(worker.Unexpected == null, worker.Name + " threw "
                    + (worker.Unexpected == null ? "" : worker.Unexpected.GetType().Name + ": " + worker.Unexpected));
                Assert.True(worker.Disposed != null, worker.Name + " never saw ObjectDisposedException ("
                    + worker.Successes + " calls succeeded)");
                long completed = worker.Successes + worker.LibraryErrors;
                Assert.True(completed >= CallsBeforeDispose, worker.Name + " completed only " + completed
                    + " calls before the dispose");
            }
        }
    }
}
