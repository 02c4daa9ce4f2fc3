/*
 * C# part of dbdf.i: exceptions, buffer typemaps and enum style. Generated classes go to the namespace given with
 * -namespace (Dbdf.Internal) and are internal to the assembly; the public API in namespace Dbdf is written by hand
 * on top of them (bindings/csharp/src).
 *
 * Buffers cross as raw addresses (IntPtr) with their sizes as ulong. The hand-written layer pins managed arrays
 * for exactly the duration of one call (GCHandle, no copy) and passes their address and size; it never passes an
 * address whose size it did not compute itself. The library never keeps those pointers, except borrowed_data
 * (dbdf_reader_open_memory), which the Reader owns for its whole life.
 */

/* Enums become int constants: the Dbdf layer has its own enums that carry the same codes. */
%include "enumsimple.swg"
%csconst(1);

/* Every generated type is an implementation detail of the assembly. */
%typemap(csclassmodifiers) SWIGTYPE "internal class"
%pragma(csharp) moduleclassmodifiers="internal class"
%pragma(csharp) imclassclassmodifiers="internal class"

/* No finalizers on the generated classes: Reader and Writer free their handles in Dispose(), with their own
 * finalizer as the safety net, and dispose every temporary struct they create. */
%typemap(csdispose) SWIGTYPE %{
  public void Dispose() {
    Dispose(true);
  }
%}

/* 64-bit counts and sizes stay 64-bit: SWIG's C# defaults map size_t to uint. uint64_t is spelled out in case
 * SWIGWORDSIZE64 made it an unsigned long, which SWIG's C# typemaps treat as 32 bits. */
%apply unsigned long long { size_t };
%apply unsigned long long { uint64_t };

/* ---- the per-call failure becomes Dbdf.DbdfException --------------------------------------------------------- */
%insert(runtime) %{
#include <stdint.h> /* the runtime section comes before the wrapper's own includes */

typedef void (SWIGSTDCALL *dbdf_csharp_status_callback_t)(int status, const char *message, int rule,
                                                          uint64_t offset);
static dbdf_csharp_status_callback_t dbdf_csharp_status_callback = NULL;

#ifdef __cplusplus
extern "C"
#endif
SWIGEXPORT void SWIGSTDCALL dbdf_csharp_register_status_callback(dbdf_csharp_status_callback_t callback) {
    dbdf_csharp_status_callback = callback;
}
%}

/* The callback sets the pending DbdfException, which the generated C# method throws as soon as the native call
 * returns ($excode). */
%exception {
    dbdf_swig_reset();
    $action
    if (dbdf_swig_failed()) {
        if (dbdf_csharp_status_callback) {
            dbdf_csharp_status_callback(dbdf_swig_status(), dbdf_swig_message(), dbdf_swig_rule(), dbdf_swig_offset());
        } else {
            SWIG_CSharpSetPendingException(SWIG_CSharpApplicationException, dbdf_swig_message());
        }
        dbdf_swig_reset();
        return $null;
    }
}

%pragma(csharp) imclasscode=%{
  /* Turns a failure reported by the native glue into the pending DbdfException of this thread. */
  internal static class StatusCallback {
    [global::System.Runtime.InteropServices.UnmanagedFunctionPointer(
        global::System.Runtime.InteropServices.CallingConvention.Cdecl)]
    internal delegate void StatusDelegate(int status, global::System.IntPtr message, int rule, ulong offset);

    /* Referenced here for the life of the process, so the native side never calls a collected delegate. */
    static readonly StatusDelegate statusDelegate = new StatusDelegate(SetPendingStatus);

    [global::System.Runtime.InteropServices.DllImport("$dllimport",
        EntryPoint="dbdf_csharp_register_status_callback")]
    static extern void dbdf_csharp_register_status_callback(StatusDelegate callback);

    /* The message is copied here: the native copy is freed as soon as this returns. */
    static void SetPendingStatus(int status, global::System.IntPtr message, int rule, ulong offset) {
      /* What a stream callback threw during this call on this thread, if anything, becomes the InnerException. */
      SWIGPendingException.Set(new global::Dbdf.DbdfException(
          status, global::Dbdf.Internal.NativeText.FromUtf8(message), rule, offset,
          global::Dbdf.Internal.StreamCallbacks.TakeFailure()));
    }

    static StatusCallback() {
      dbdf_csharp_register_status_callback(statusDelegate);
    }

    internal static bool Register() {
      return statusDelegate != null; /* the static constructor did the work */
    }
  }

  /* Initialised with the other static fields, before the first native call through this class. */
  internal static readonly bool statusCallbackRegistered = StatusCallback.Register();

  /* The C functions behind every C# byte source and sink (see dbdf_csharp_register_stream_callbacks). */
  internal static class StreamCallbackRegistration {
    /* Referenced here for the life of the process, so the native side never calls a collected delegate. */
    static readonly global::Dbdf.Internal.StreamCallbacks.ReadAtDelegate readAt =
        global::Dbdf.Internal.StreamCallbacks.ReadAt;
    static readonly global::Dbdf.Internal.StreamCallbacks.WriteDelegate write =
        global::Dbdf.Internal.StreamCallbacks.Write;
    static readonly global::Dbdf.Internal.StreamCallbacks.ReleaseDelegate release =
        global::Dbdf.Internal.StreamCallbacks.Release;

    [global::System.Runtime.InteropServices.DllImport("$dllimport",
        EntryPoint="dbdf_csharp_register_stream_callbacks")]
    static extern void dbdf_csharp_register_stream_callbacks(
        global::Dbdf.Internal.StreamCallbacks.ReadAtDelegate readAt,
        global::Dbdf.Internal.StreamCallbacks.WriteDelegate write,
        global::Dbdf.Internal.StreamCallbacks.ReleaseDelegate release);

    static StreamCallbackRegistration() {
      dbdf_csharp_register_stream_callbacks(readAt, write, release);
    }

    internal static bool Register() {
      return readAt != null; /* the static constructor did the work */
    }
  }

  internal static readonly bool streamCallbacksRegistered = StreamCallbackRegistration.Register();
%}

/* ---- buffers: raw addresses, sized by the caller -------------------------------------------------------------- */
%define DBDF_CSHARP_ADDRESS(CTYPE, NAME)
%typemap(ctype) CTYPE *NAME "void *"
%typemap(imtype) CTYPE *NAME "global::System.IntPtr"
%typemap(cstype) CTYPE *NAME "global::System.IntPtr"
%typemap(csin) CTYPE *NAME "$csinput"
%typemap(in) CTYPE *NAME %{ $1 = ($1_ltype)$input; %}
%enddef

DBDF_CSHARP_ADDRESS(void, values)
DBDF_CSHARP_ADDRESS(const void, values)
DBDF_CSHARP_ADDRESS(uint64_t, row_offsets)
DBDF_CSHARP_ADDRESS(uint32_t, row_indices)
DBDF_CSHARP_ADDRESS(uint32_t, col_indices)
DBDF_CSHARP_ADDRESS(uint64_t, object_col_indices)
DBDF_CSHARP_ADDRESS(const uint64_t, row_offsets)
DBDF_CSHARP_ADDRESS(const uint32_t, row_indices)
DBDF_CSHARP_ADDRESS(const uint32_t, col_indices)
DBDF_CSHARP_ADDRESS(const int32_t, column_type_codes)
DBDF_CSHARP_ADDRESS(const uint32_t, label_lengths)
DBDF_CSHARP_ADDRESS(const void, label_bytes)
DBDF_CSHARP_ADDRESS(const void, borrowed_data)

/* ---- byte sources and sinks: Dbdf.Internal.StreamCallbacks behind three C functions -------------------------------
 * The read, write and release delegates are registered once (below); each source or sink passes a GCHandle of its
 * Dbdf.Internal stream adapter as the context, freed by the release delegate exactly once: by the library for a
 * source, when the native writer is freed for a sink. */
%insert(runtime) %{
typedef int64_t (SWIGSTDCALL *dbdf_csharp_read_at_fn)(void *context, uint64_t offset, void *destination,
                                                      size_t length);
typedef int (SWIGSTDCALL *dbdf_csharp_write_fn)(void *context, const void *data, size_t nbytes);
typedef void (SWIGSTDCALL *dbdf_csharp_release_fn)(void *context);
static dbdf_csharp_read_at_fn dbdf_csharp_read_at = NULL;
static dbdf_csharp_write_fn dbdf_csharp_write = NULL;
static dbdf_csharp_release_fn dbdf_csharp_release = NULL;

#ifdef __cplusplus
extern "C"
#endif
SWIGEXPORT void SWIGSTDCALL dbdf_csharp_register_stream_callbacks(dbdf_csharp_read_at_fn read_at,
                                                                  dbdf_csharp_write_fn write,
                                                                  dbdf_csharp_release_fn release) {
    dbdf_csharp_read_at = read_at;
    dbdf_csharp_write = write;
    dbdf_csharp_release = release;
}
%}
%typemap(ctype) dbdf_swig_callbacks_t source_callbacks "void *"
%typemap(imtype) dbdf_swig_callbacks_t source_callbacks "global::System.IntPtr"
%typemap(cstype) dbdf_swig_callbacks_t source_callbacks "global::System.IntPtr"
%typemap(csin) dbdf_swig_callbacks_t source_callbacks "$csinput"
%typemap(in) dbdf_swig_callbacks_t source_callbacks %{
    memset(&$1, 0, sizeof $1);
    $1.read_at = dbdf_csharp_read_at;
    $1.context = $input;
    $1.release = dbdf_csharp_release;
%}
%typemap(ctype) dbdf_swig_callbacks_t sink_callbacks "void *"
%typemap(imtype) dbdf_swig_callbacks_t sink_callbacks "global::System.IntPtr"
%typemap(cstype) dbdf_swig_callbacks_t sink_callbacks "global::System.IntPtr"
%typemap(csin) dbdf_swig_callbacks_t sink_callbacks "$csinput"
%typemap(in) dbdf_swig_callbacks_t sink_callbacks %{
    memset(&$1, 0, sizeof $1);
    $1.write = dbdf_csharp_write;
    $1.context = $input;
    $1.release = dbdf_csharp_release;
%}

/* ---- results that are bytes ---------------------------------------------------------------------------------- */
%{
static const dbdf_swig_bytes_t dbdf_csharp_no_bytes = {NULL, 0};
static const dbdf_swig_borrowed_t dbdf_csharp_no_borrowed = {NULL, 0};
%}

/* Copied into a new byte[] as soon as the call returns (labels, memory output). */
%typemap(ctype, out="dbdf_swig_bytes_t") dbdf_swig_bytes_t "dbdf_swig_bytes_t"
%typemap(imtype) dbdf_swig_bytes_t "global::Dbdf.Internal.NativeBytes"
%typemap(cstype) dbdf_swig_bytes_t "byte[]"
%typemap(out, null="dbdf_csharp_no_bytes") dbdf_swig_bytes_t %{ $result = $1; %}
%typemap(csout, excode=SWIGEXCODE) dbdf_swig_bytes_t {
    global::Dbdf.Internal.NativeBytes bytes = $imcall;$excode
    return bytes.ToArray();
  }

/* Borrowed bytes stay where they are: the Dbdf layer wraps the address without copying. */
%typemap(ctype, out="dbdf_swig_borrowed_t") dbdf_swig_borrowed_t "dbdf_swig_borrowed_t"
%typemap(imtype) dbdf_swig_borrowed_t "global::Dbdf.Internal.NativeBytes"
%typemap(cstype) dbdf_swig_borrowed_t "global::Dbdf.Internal.NativeBytes"
%typemap(out, null="dbdf_csharp_no_borrowed") dbdf_swig_borrowed_t %{ $result = $1; %}
%typemap(csout, excode=SWIGEXCODE) dbdf_swig_borrowed_t {
    global::Dbdf.Internal.NativeBytes bytes = $imcall;$excode
    return bytes;
  }
