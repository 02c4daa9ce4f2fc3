using System.Reflection;
using System.Runtime.CompilerServices;

[assembly: AssemblyTitle("Dbdf")]
[assembly: AssemblyDescription("Reader and writer for the DAPHNE binary data format (.dbdf)")]
[assembly: AssemblyVersion("0.2.0.0")]
// The tests also exercise the generated layer directly, to prove that misuse of it cannot crash.
[assembly: InternalsVisibleTo("Dbdf.Tests")]
