/*
 * Java part of dbdf.i: exceptions, buffer typemaps, enum style and class visibility. Generated classes go to the
 * package given with -package (org.dbdf) as package-private classes: the idiomatic API of that package is written
 * by hand on top of them, and nothing generated is reachable from outside it.
 *
 * Arrays cross without copying: they are pinned with GetPrimitiveArrayCritical for the duration of one call
 * (no JNI call happens while they are pinned: the library call itself never calls back into Java), except in calls
 * on a reader or writer over a Java byte source or sink, whose callbacks run Java code during the call: those get
 * the array elements with Get<Type>ArrayElements instead (a copy, written back after the call). Direct
 * ByteBuffers are passed by address. Pinning happens in the "check" typemaps, after every argument has been
 * validated in the "in" typemaps, so that a rejected argument never leaves an array pinned; on a library error
 * the %exception below releases the pins ($cleanup) before raising the Java exception.
 */

/* Enums become int constants: the org.dbdf layer has its own enums that carry the same codes. */
%include "enumtypeunsafe.swg"
%javaconst(1);

/* Package-private classes only (after enumtypeunsafe.swg, which sets its own modifiers). */
%typemap(javaclassmodifiers) SWIGTYPE, SWIGTYPE *, SWIGTYPE &, SWIGTYPE &&, SWIGTYPE [], SWIGTYPE (CLASS::*) "final class"
%typemap(javaclassmodifiers) enum SWIGTYPE "final class"
%pragma(java) jniclassclassmodifiers="final class"
%pragma(java) moduleclassmodifiers="final class"
/* SWIG writes #define constants into an interface that is always public. The version macros are the header's;
 * the library's own version is asked at run time (Dbdf.version()). */
%ignore DBDF_VERSION_MAJOR;
%ignore DBDF_VERSION_MINOR;
%ignore DBDF_VERSION_PATCH;
%ignore DBDF_VERSION_NUMBER;

/* Java has no unsigned 64-bit integer: uint64_t crosses as long with the same bits (counts, offsets and sizes
 * never reach 2^63 in practice; the org.dbdf layer documents the unsigned value-type mapping). */
%apply long long { uint64_t };

/* Integer arguments. The default conversions are C casts, which would turn a negative long into a uint64_t near
 * 2^64 and keep only the low 32 bits of a long given for a uint32_t. The org.dbdf layer checks every argument
 * first (Arguments.java); these typemaps refuse, with the same IllegalArgumentException, whatever reaches the
 * generated layer anyway. They run in the "in" phase, before any array is pinned or string fetched by a later
 * argument, so returning early leaves nothing to release. */
%typemap(in) uint64_t %{
    if ($input < 0) {
        dbdf_java_throw_out_of_range(jenv, "$1_name", (long long)$input, 9223372036854775807LL);
        return $null;
    }
    $1 = (uint64_t)$input;
%}
%typemap(in) uint32_t %{
    if ($input < 0 || $input > 4294967295LL) {
        dbdf_java_throw_out_of_range(jenv, "$1_name", (long long)$input, 4294967295LL);
        return $null;
    }
    $1 = (uint32_t)$input;
%}

%{
#include <jni.h>
#include <stdio.h>

/* ---- byte sources and sinks in Java ------------------------------------------------------------------------
 * The context of a source's or sink's C callbacks: a global reference to the org.dbdf adapter whose method the
 * callback calls, and the JavaVM, through which the callback finds the calling thread's JNIEnv (the handle may
 * move between threads; the library calls back only on the thread inside a call on it). */
typedef struct dbdf_java_callback_target {
    JavaVM *vm;
    jobject adapter;
    jmethodID method;
} dbdf_java_callback_target_t;

/* What a Java callback threw during the current call on this thread (a global reference, or NULL): the library
 * only learns "failed", so the exception is kept here until the call's failure is raised (see
 * dbdf_java_throw_with_callback_failure). */
static DBDF_SWIG_THREAD_LOCAL jobject dbdf_java_callback_failure = NULL;

static void dbdf_java_forget_callback_failure(JNIEnv *jenv) {
    if (dbdf_java_callback_failure) {
        (*jenv)->DeleteGlobalRef(jenv, dbdf_java_callback_failure);
        dbdf_java_callback_failure = NULL;
    }
}

static JNIEnv *dbdf_java_env_of(const dbdf_java_callback_target_t *target) {
    JNIEnv *jenv = NULL;
    if ((*target->vm)->GetEnv(target->vm, (void **)&jenv, JNI_VERSION_1_6) != JNI_OK) {
        return NULL;
    }
    return jenv;
}

/* Called with the exception a callback's Java method left pending: keeps it for the call's failure, hands its
 * toString() to the library as the callback's message, and clears it so that the library call can go on to fail
 * cleanly. */
static void dbdf_java_callback_threw(JNIEnv *jenv) {
    jthrowable thrown = (*jenv)->ExceptionOccurred(jenv);
    jclass object_class;
    jmethodID to_string;
    jstring text = NULL;
    const char *message = NULL;
    (*jenv)->ExceptionClear(jenv);
    if (!thrown) {
        return;
    }
    dbdf_java_forget_callback_failure(jenv);
    dbdf_java_callback_failure = (*jenv)->NewGlobalRef(jenv, thrown);
    object_class = (*jenv)->FindClass(jenv, "java/lang/Object");
    if (object_class) {
        to_string = (*jenv)->GetMethodID(jenv, object_class, "toString", "()Ljava/lang/String;");
        if (to_string) {
            text = (jstring)(*jenv)->CallObjectMethod(jenv, thrown, to_string);
        }
        (*jenv)->DeleteLocalRef(jenv, object_class);
    }
    (*jenv)->ExceptionClear(jenv); /* toString() itself may throw: the message is then the fallback below */
    if (text) {
        message = (*jenv)->GetStringUTFChars(jenv, text, NULL);
    }
    dbdf_set_callback_error(message ? message : "the Java callback threw an exception");
    if (message) {
        (*jenv)->ReleaseStringUTFChars(jenv, text, message);
    }
    (*jenv)->ExceptionClear(jenv);
    if (text) {
        (*jenv)->DeleteLocalRef(jenv, text);
    }
    (*jenv)->DeleteLocalRef(jenv, thrown);
}

/* dbdf_read_at_fn over ByteSourceAdapter.readAt(long offset, ByteBuffer destination): the destination is a direct
 * ByteBuffer over the library's memory (capped at Integer.MAX_VALUE bytes, a short read the library completes). */
static int64_t dbdf_java_read_at(void *context, uint64_t offset, void *destination, size_t length) {
    dbdf_java_callback_target_t *target = (dbdf_java_callback_target_t *)context;
    JNIEnv *jenv = dbdf_java_env_of(target);
    jlong capacity = length > (size_t)INT32_MAX ? (jlong)INT32_MAX : (jlong)length;
    jobject buffer;
    jlong copied;
    if (!jenv) {
        dbdf_set_callback_error("the Java byte source was called on a thread not attached to the JVM");
        return -1;
    }
    if (offset > (uint64_t)INT64_MAX) {
        dbdf_set_callback_error("the Java byte source was asked for an offset beyond Long.MAX_VALUE");
        return -1;
    }
    buffer = (*jenv)->NewDirectByteBuffer(jenv, destination, capacity);
    if (!buffer) {
        dbdf_java_callback_threw(jenv);
        return -1;
    }
    copied = (*jenv)->CallLongMethod(jenv, target->adapter, target->method, (jlong)offset, buffer);
    (*jenv)->DeleteLocalRef(jenv, buffer);
    if ((*jenv)->ExceptionCheck(jenv)) {
        dbdf_java_callback_threw(jenv);
        return -1;
    }
    if (copied < 0 || copied > capacity) {
        dbdf_set_callback_error("the Java byte source reported more bytes than were asked for");
        return -1;
    }
    return (int64_t)copied;
}

/* dbdf_write_fn over ByteSinkAdapter.write(ByteBuffer data), in pieces of at most Integer.MAX_VALUE bytes. */
static int dbdf_java_write(void *context, const void *data, size_t nbytes) {
    dbdf_java_callback_target_t *target = (dbdf_java_callback_target_t *)context;
    JNIEnv *jenv = dbdf_java_env_of(target);
    const char *piece = (const char *)data;
    if (!jenv) {
        dbdf_set_callback_error("the Java byte sink was called on a thread not attached to the JVM");
        return 1;
    }
    while (nbytes > 0) {
        size_t piece_nbytes = nbytes > (size_t)INT32_MAX ? (size_t)INT32_MAX : nbytes;
        /* The adapter only reads the buffer (it is made read-only there before any user code sees it). */
        jobject buffer = (*jenv)->NewDirectByteBuffer(jenv, (void *)piece, (jlong)piece_nbytes);
        if (!buffer) {
            dbdf_java_callback_threw(jenv);
            return 1;
        }
        (*jenv)->CallVoidMethod(jenv, target->adapter, target->method, buffer);
        (*jenv)->DeleteLocalRef(jenv, buffer);
        if ((*jenv)->ExceptionCheck(jenv)) {
            dbdf_java_callback_threw(jenv);
            return 1;
        }
        piece += piece_nbytes;
        nbytes -= piece_nbytes;
    }
    return 0;
}

/* Frees a callback target: called by the library for a source, by the writer's destructor for a sink; possibly on
 * the Cleaner's thread, which is a Java thread too. */
static void dbdf_java_release_target(void *context) {
    dbdf_java_callback_target_t *target = (dbdf_java_callback_target_t *)context;
    JNIEnv *jenv;
    if (!target) {
        return;
    }
    jenv = dbdf_java_env_of(target);
    if (jenv) {
        (*jenv)->DeleteGlobalRef(jenv, target->adapter);
    }
    free(target);
}

/* Fills `callbacks` (all but the read or write function) for `adapter`, whose method `name` of `signature` the
 * callback will call; false with a pending Java exception on failure, with nothing left to free. */
static bool dbdf_java_callbacks_from(JNIEnv *jenv, jobject adapter, const char *name, const char *signature,
                                     dbdf_swig_callbacks_t *callbacks) {
    dbdf_java_callback_target_t *target;
    jclass adapter_class;
    memset(callbacks, 0, sizeof *callbacks);
    if (!adapter) {
        jclass null_pointer = (*jenv)->FindClass(jenv, "java/lang/NullPointerException");
        if (null_pointer) {
            (*jenv)->ThrowNew(jenv, null_pointer, "the byte source or sink is null");
        }
        return false;
    }
    target = (dbdf_java_callback_target_t *)calloc(1, sizeof *target);
    if (!target) {
        jclass out_of_memory = (*jenv)->FindClass(jenv, "java/lang/OutOfMemoryError");
        if (out_of_memory) {
            (*jenv)->ThrowNew(jenv, out_of_memory, "byte source or sink");
        }
        return false;
    }
    adapter_class = (*jenv)->GetObjectClass(jenv, adapter);
    target->method = (*jenv)->GetMethodID(jenv, adapter_class, name, signature);
    (*jenv)->DeleteLocalRef(jenv, adapter_class);
    if (!target->method || (*jenv)->GetJavaVM(jenv, &target->vm) != JNI_OK) {
        free(target);
        return false; /* NoSuchMethodError pending, or the VM is unusable */
    }
    target->adapter = (*jenv)->NewGlobalRef(jenv, adapter);
    if (!target->adapter) {
        free(target);
        return false; /* OutOfMemoryError pending */
    }
    callbacks->context = target;
    callbacks->release = dbdf_java_release_target;
    return true;
}

/* Throws `exception` (a DbdfException), or what DbdfException.withCallbackFailure makes of it and of the exception
 * a Java callback threw during the call: that method decides in Java (an IOException becomes the cause, a
 * RuntimeException or an Error is thrown itself with `exception` suppressed). If the method cannot be found or run,
 * the pending Java error (OutOfMemoryError, NoSuchMethodError) is left to propagate. */
static void dbdf_java_throw_with_callback_failure(JNIEnv *jenv, jclass exception_class, jthrowable exception) {
    jobject failure = dbdf_java_callback_failure;
    jmethodID decide;
    jthrowable outcome;
    if (!failure) {
        (*jenv)->Throw(jenv, exception);
        return;
    }
    decide = (*jenv)->GetStaticMethodID(jenv, exception_class, "withCallbackFailure",
                                        "(Lorg/dbdf/DbdfException;Ljava/lang/Throwable;)Ljava/lang/Throwable;");
    outcome = decide ? (jthrowable)(*jenv)->CallStaticObjectMethod(jenv, exception_class, decide, exception, failure)
                     : NULL;
    dbdf_java_forget_callback_failure(jenv);
    if (!(*jenv)->ExceptionCheck(jenv)) {
        (*jenv)->Throw(jenv, outcome ? outcome : exception);
    }
}

/* Raises org.dbdf.DbdfException(int status, byte[] message, int rule, long offset). The message goes as its UTF-8
 * bytes, which Java decodes: NewStringUTF would need modified UTF-8, and a message quoting a label may hold any
 * byte. An offset too large for a long cannot come from a real input (its size is one); it is passed as -1, "no
 * offset", like DBDF_NO_OFFSET. If the class cannot be found or memory runs out, the pending Java error is left
 * to propagate. */
static void dbdf_java_throw_status(JNIEnv *jenv, int status, const char *message, int rule, uint64_t offset) {
    jclass exception_class = (*jenv)->FindClass(jenv, "org/dbdf/DbdfException");
    jmethodID constructor;
    jbyteArray message_bytes;
    jsize length;
    jobject exception;
    if (!exception_class) {
        return;
    }
    constructor = (*jenv)->GetMethodID(jenv, exception_class, "<init>", "(I[BIJ)V");
    if (!constructor) {
        return;
    }
    length = (jsize)strlen(message);
    message_bytes = (*jenv)->NewByteArray(jenv, length);
    if (!message_bytes) {
        return;
    }
    (*jenv)->SetByteArrayRegion(jenv, message_bytes, 0, length, (const jbyte *)message);
    exception = (*jenv)->NewObject(jenv, exception_class, constructor, (jint)status, message_bytes, (jint)rule,
                                   offset > (uint64_t)INT64_MAX ? (jlong)-1 : (jlong)offset);
    if (exception) {
        dbdf_java_throw_with_callback_failure(jenv, exception_class, (jthrowable)exception);
    }
}

static void dbdf_java_throw_named(JNIEnv *jenv, const char *class_name, const char *message) {
    jclass exception_class = (*jenv)->FindClass(jenv, class_name);
    if (exception_class) {
        (*jenv)->ThrowNew(jenv, exception_class, message);
    }
}

/* Raises IllegalArgumentException("<name> must be in 0..<maximum>, not <value>"), as org.dbdf.Arguments does. */
static void dbdf_java_throw_out_of_range(JNIEnv *jenv, const char *name, long long value, long long maximum) {
    char message[160];
    snprintf(message, sizeof message, "%s must be in 0..%lld, not %lld", name, maximum, value);
    dbdf_java_throw_named(jenv, "java/lang/IllegalArgumentException", message);
}

/* The primitive arrays that carry values and indices: boolean[] and char[] never do. */
static const struct {
    const char *signature;
    size_t element_size;
} dbdf_java_array_kinds[] = {{"[D", 8}, {"[J", 8}, {"[F", 4}, {"[I", 4}, {"[S", 2}, {"[B", 1}};

/* Index of `object`'s kind in dbdf_java_array_kinds, or -1 when it is none of them (or FindClass failed). */
static int dbdf_java_array_kind(JNIEnv *jenv, jobject object) {
    size_t kind;
    for (kind = 0; kind < sizeof dbdf_java_array_kinds / sizeof dbdf_java_array_kinds[0]; ++kind) {
        jclass array_class = (*jenv)->FindClass(jenv, dbdf_java_array_kinds[kind].signature);
        jboolean matches;
        if (!array_class) {
            return -1;
        }
        matches = (*jenv)->IsInstanceOf(jenv, object, array_class);
        (*jenv)->DeleteLocalRef(jenv, array_class);
        if (matches) {
            return (int)kind;
        }
    }
    return -1;
}

/* Element size of a primitive array other than boolean[] and char[], or 0 when `object` is none of them. */
static size_t dbdf_java_array_element_size(JNIEnv *jenv, jobject object) {
    int kind = dbdf_java_array_kind(jenv, object);
    return kind < 0 ? 0 : dbdf_java_array_kinds[kind].element_size;
}

/* The elements of `array` for one call: pinned critically, or, when the call may run Java code (`may_call_back`),
 * through Get<Type>ArrayElements, which allows JNI calls while held. *elements says which, for dbdf_java_unpin().
 * NULL with a pending Java exception on failure. */
static void *dbdf_java_pin(JNIEnv *jenv, jarray array, bool may_call_back, bool *elements) {
    *elements = may_call_back;
    if (!may_call_back) {
        return (*jenv)->GetPrimitiveArrayCritical(jenv, array, NULL);
    }
    switch (dbdf_java_array_kind(jenv, array)) {
    case 0: return (*jenv)->GetDoubleArrayElements(jenv, (jdoubleArray)array, NULL);
    case 1: return (*jenv)->GetLongArrayElements(jenv, (jlongArray)array, NULL);
    case 2: return (*jenv)->GetFloatArrayElements(jenv, (jfloatArray)array, NULL);
    case 3: return (*jenv)->GetIntArrayElements(jenv, (jintArray)array, NULL);
    case 4: return (*jenv)->GetShortArrayElements(jenv, (jshortArray)array, NULL);
    case 5: return (*jenv)->GetByteArrayElements(jenv, (jbyteArray)array, NULL);
    default:
        if (!(*jenv)->ExceptionCheck(jenv)) {
            dbdf_java_throw_named(jenv, "java/lang/IllegalArgumentException", "unsupported array type");
        }
        return NULL;
    }
}

/* Releases what dbdf_java_pin() returned; `mode` 0 copies changes back, JNI_ABORT drops them. */
static void dbdf_java_unpin(JNIEnv *jenv, jarray array, void *address, bool elements, jint mode) {
    if (!elements) {
        (*jenv)->ReleasePrimitiveArrayCritical(jenv, array, address, mode);
        return;
    }
    switch (dbdf_java_array_kind(jenv, array)) {
    case 0: (*jenv)->ReleaseDoubleArrayElements(jenv, (jdoubleArray)array, (jdouble *)address, mode); break;
    case 1: (*jenv)->ReleaseLongArrayElements(jenv, (jlongArray)array, (jlong *)address, mode); break;
    case 2: (*jenv)->ReleaseFloatArrayElements(jenv, (jfloatArray)array, (jfloat *)address, mode); break;
    case 3: (*jenv)->ReleaseIntArrayElements(jenv, (jintArray)array, (jint *)address, mode); break;
    case 4: (*jenv)->ReleaseShortArrayElements(jenv, (jshortArray)array, (jshort *)address, mode); break;
    case 5: (*jenv)->ReleaseByteArrayElements(jenv, (jbyteArray)array, (jbyte *)address, mode); break;
    default: break;
    }
}

/* A value buffer from Java: a primitive array (pinned later) or a direct ByteBuffer (used by address). */
typedef struct dbdf_java_values {
    jarray array;  /* non-NULL when the values are an array still to be pinned / to be released */
    bool elements; /* pinned with Get<Type>ArrayElements, not critically (see dbdf_java_pin) */
    void *address; /* pinned or direct address */
    size_t nbytes;
} dbdf_java_values_t;

/* Fills `values` from `object`; raises a Java exception and returns false when it is neither kind. */
static bool dbdf_java_values_from(JNIEnv *jenv, jobject object, dbdf_java_values_t *values) {
    size_t element_size;
    values->array = NULL;
    values->elements = false;
    values->address = NULL;
    values->nbytes = 0;
    if (!object) {
        dbdf_java_throw_named(jenv, "java/lang/NullPointerException", "values is null");
        return false;
    }
    element_size = dbdf_java_array_element_size(jenv, object);
    if ((*jenv)->ExceptionCheck(jenv)) {
        return false;
    }
    if (element_size != 0) {
        values->array = (jarray)object;
        values->nbytes = (size_t)(*jenv)->GetArrayLength(jenv, values->array) * element_size;
        return true;
    }
    values->address = (*jenv)->GetDirectBufferAddress(jenv, object);
    if (values->address) {
        jlong capacity = (*jenv)->GetDirectBufferCapacity(jenv, object);
        values->nbytes = capacity > 0 ? (size_t)capacity : 0;
        return true;
    }
    dbdf_java_throw_named(jenv, "java/lang/IllegalArgumentException",
                          "values must be a double[], float[], long[], int[], short[] or byte[] array or a direct "
                          "ByteBuffer");
    return false;
}
%}

/* A library failure becomes org.dbdf.DbdfException after the pinned arrays are released. */
/* What a Java byte source or sink threw during the call is raised with that failure (see
 * dbdf_java_throw_with_callback_failure). */
%exception {
    dbdf_swig_reset();
    dbdf_java_forget_callback_failure(jenv);
    $action
    if (dbdf_swig_failed()) {
        $cleanup
        dbdf_java_throw_status(jenv, dbdf_swig_status(), dbdf_swig_message(), dbdf_swig_rule(), dbdf_swig_offset());
        dbdf_swig_reset();
        return $null;
    }
    dbdf_java_forget_callback_failure(jenv);
}

/* ---- value buffers: Object (primitive array or direct ByteBuffer) ---------------------------------------- */
%define DBDF_JAVA_VALUES(CONST_QUALIFIER, RELEASE_MODE)
%typemap(jni) (CONST_QUALIFIER void *values, size_t values_nbytes) "jobject"
%typemap(jtype) (CONST_QUALIFIER void *values, size_t values_nbytes) "Object"
%typemap(jstype) (CONST_QUALIFIER void *values, size_t values_nbytes) "Object"
%typemap(javain) (CONST_QUALIFIER void *values, size_t values_nbytes) "$javainput"
%typemap(in) (CONST_QUALIFIER void *values, size_t values_nbytes) (dbdf_java_values_t java_values) {
    if (!dbdf_java_values_from(jenv, $input, &java_values)) {
        return $null;
    }
    $1 = java_values.address;
    $2 = java_values.nbytes;
}
/* arg1 is the reader or writer whose method this is: every method with a value buffer has one. */
%typemap(check) (CONST_QUALIFIER void *values, size_t values_nbytes) {
    if (java_values$argnum.array) {
        $1 = ($1_ltype)dbdf_java_pin(jenv, java_values$argnum.array, dbdf_swig_calls_back(arg1),
                                     &java_values$argnum.elements);
        if (!$1) {
            java_values$argnum.array = NULL;
            return $null; /* OutOfMemoryError pending */
        }
    }
}
%typemap(freearg) (CONST_QUALIFIER void *values, size_t values_nbytes) {
    if (java_values$argnum.array && $1) {
        dbdf_java_unpin(jenv, java_values$argnum.array, (void *)$1, java_values$argnum.elements, RELEASE_MODE);
    }
}
%enddef

DBDF_JAVA_VALUES(, 0)
/* Inputs are never written: nothing to copy back. */
DBDF_JAVA_VALUES(const, JNI_ABORT)

/* ---- typed index and count arrays ------------------------------------------------------------------------ */
%define DBDF_JAVA_ARRAY(CTYPE, POINTER_NAME, COUNT_NAME, JNI_ARRAY, JAVA_ARRAY, RELEASE_MODE)
%typemap(jni) (CTYPE *POINTER_NAME, size_t COUNT_NAME) "JNI_ARRAY"
%typemap(jtype) (CTYPE *POINTER_NAME, size_t COUNT_NAME) "JAVA_ARRAY"
%typemap(jstype) (CTYPE *POINTER_NAME, size_t COUNT_NAME) "JAVA_ARRAY"
%typemap(javain) (CTYPE *POINTER_NAME, size_t COUNT_NAME) "$javainput"
%typemap(in) (CTYPE *POINTER_NAME, size_t COUNT_NAME) (jarray pinned_array = NULL, bool pinned_elements = false) {
    if (!$input) {
        dbdf_java_throw_named(jenv, "java/lang/NullPointerException", "$1_name is null");
        return $null;
    }
    pinned_array = (jarray)$input;
    $1 = NULL;
    $2 = (size_t)(*jenv)->GetArrayLength(jenv, pinned_array);
}
%typemap(check) (CTYPE *POINTER_NAME, size_t COUNT_NAME) {
    $1 = ($1_ltype)dbdf_java_pin(jenv, pinned_array$argnum, dbdf_swig_calls_back(arg1), &pinned_elements$argnum);
    if (!$1) {
        pinned_array$argnum = NULL;
        return $null; /* OutOfMemoryError pending */
    }
}
%typemap(freearg) (CTYPE *POINTER_NAME, size_t COUNT_NAME) {
    if (pinned_array$argnum && $1) {
        dbdf_java_unpin(jenv, pinned_array$argnum, (void *)$1, pinned_elements$argnum, RELEASE_MODE);
    }
}
%enddef

DBDF_JAVA_ARRAY(uint64_t, row_offsets, row_offsets_capacity, jlongArray, long[], 0)
DBDF_JAVA_ARRAY(uint32_t, row_indices, row_indices_capacity, jintArray, int[], 0)
DBDF_JAVA_ARRAY(uint32_t, col_indices, col_indices_capacity, jintArray, int[], 0)
DBDF_JAVA_ARRAY(uint64_t, object_col_indices, object_col_indices_capacity, jlongArray, long[], 0)
DBDF_JAVA_ARRAY(const uint64_t, row_offsets, row_offsets_count, jlongArray, long[], JNI_ABORT)
DBDF_JAVA_ARRAY(const uint32_t, row_indices, row_indices_count, jintArray, int[], JNI_ABORT)
DBDF_JAVA_ARRAY(const uint32_t, col_indices, col_indices_count, jintArray, int[], JNI_ABORT)
DBDF_JAVA_ARRAY(const int32_t, column_type_codes, column_count, jintArray, int[], JNI_ABORT)
DBDF_JAVA_ARRAY(const uint32_t, label_lengths, label_count, jintArray, int[], JNI_ABORT)
DBDF_JAVA_ARRAY(const void, label_bytes, label_bytes_nbytes, jbyteArray, byte[], JNI_ABORT)

/* ---- byte sources and sinks: a ByteSourceAdapter / ByteSinkAdapter called from the library ----------------- */
%typemap(jni) dbdf_swig_callbacks_t source_callbacks "jobject"
%typemap(jtype) dbdf_swig_callbacks_t source_callbacks "ByteSourceAdapter"
%typemap(jstype) dbdf_swig_callbacks_t source_callbacks "ByteSourceAdapter"
%typemap(javain) dbdf_swig_callbacks_t source_callbacks "$javainput"
%typemap(in) dbdf_swig_callbacks_t source_callbacks {
    if (!dbdf_java_callbacks_from(jenv, $input, "readAt", "(JLjava/nio/ByteBuffer;)J", &$1)) {
        return $null;
    }
    $1.read_at = dbdf_java_read_at;
}
%typemap(jni) dbdf_swig_callbacks_t sink_callbacks "jobject"
%typemap(jtype) dbdf_swig_callbacks_t sink_callbacks "ByteSinkAdapter"
%typemap(jstype) dbdf_swig_callbacks_t sink_callbacks "ByteSinkAdapter"
%typemap(javain) dbdf_swig_callbacks_t sink_callbacks "$javainput"
%typemap(in) dbdf_swig_callbacks_t sink_callbacks {
    if (!dbdf_java_callbacks_from(jenv, $input, "write", "(Ljava/nio/ByteBuffer;)V", &$1)) {
        return $null;
    }
    $1.write = dbdf_java_write;
}

/* ---- an object kept alive for the library: a global reference, deleted by dbdf_java_release_target when the
 * library releases it (an Arrow stream that lends memory, once its last batch is released). No method is called:
 * hashCode() only satisfies dbdf_java_callbacks_from, which every object has. */
%typemap(jni) dbdf_swig_callbacks_t keep_alive "jobject"
%typemap(jtype) dbdf_swig_callbacks_t keep_alive "Object"
%typemap(jstype) dbdf_swig_callbacks_t keep_alive "Object"
%typemap(javain) dbdf_swig_callbacks_t keep_alive "$javainput"
%typemap(in) dbdf_swig_callbacks_t keep_alive {
    if (!dbdf_java_callbacks_from(jenv, $input, "hashCode", "()I", &$1)) {
        return $null;
    }
}

/* ---- memory the reader keeps: a direct ByteBuffer the Java side holds on to ------------------------------ */
%typemap(jni) (const void *borrowed_data, size_t borrowed_nbytes) "jobject"
%typemap(jtype) (const void *borrowed_data, size_t borrowed_nbytes) "java.nio.ByteBuffer"
%typemap(jstype) (const void *borrowed_data, size_t borrowed_nbytes) "java.nio.ByteBuffer"
%typemap(javain) (const void *borrowed_data, size_t borrowed_nbytes) "$javainput"
%typemap(in) (const void *borrowed_data, size_t borrowed_nbytes) {
    jlong capacity;
    if (!$input) {
        dbdf_java_throw_named(jenv, "java/lang/NullPointerException", "buffer is null");
        return $null;
    }
    $1 = (*jenv)->GetDirectBufferAddress(jenv, $input);
    capacity = (*jenv)->GetDirectBufferCapacity(jenv, $input);
    if (!$1 || capacity < 0) {
        dbdf_java_throw_named(jenv, "java/lang/IllegalArgumentException", "buffer must be a direct ByteBuffer");
        return $null;
    }
    $2 = (size_t)capacity;
}

/* ---- results that are bytes ------------------------------------------------------------------------------ */
%typemap(jni) dbdf_swig_bytes_t "jbyteArray"
%typemap(jtype) dbdf_swig_bytes_t "byte[]"
%typemap(jstype) dbdf_swig_bytes_t "byte[]"
%typemap(javaout) dbdf_swig_bytes_t { return $jnicall; }
%typemap(out) dbdf_swig_bytes_t {
    $result = (*jenv)->NewByteArray(jenv, (jsize)$1.nbytes);
    if ($result && $1.nbytes > 0) {
        (*jenv)->SetByteArrayRegion(jenv, $result, 0, (jsize)$1.nbytes, (const jbyte *)$1.data);
    }
}

/* Borrowed bytes become a direct ByteBuffer over the library's memory: no copy. The org.dbdf layer makes it
 * read-only and keeps the native reader alive for as long as the buffer is reachable (SharedNativeReader). */
%typemap(jni) dbdf_swig_borrowed_t "jobject"
%typemap(jtype) dbdf_swig_borrowed_t "java.nio.ByteBuffer"
%typemap(jstype) dbdf_swig_borrowed_t "java.nio.ByteBuffer"
%typemap(javaout) dbdf_swig_borrowed_t { return $jnicall; }
%typemap(out) dbdf_swig_borrowed_t {
    static char empty_payload;
    $result = (*jenv)->NewDirectByteBuffer(jenv, $1.data ? (void *)$1.data : (void *)&empty_payload,
                                           (jlong)$1.nbytes);
}

/* No finalizers: the org.dbdf classes free native memory in close(), with a java.lang.ref.Cleaner as the safety
 * net. */
%typemap(javafinalize) SWIGTYPE ""

/* Whatever touches the JNI class first loads the native libraries (from the jar, see NativeLibrary). */
%pragma(java) jniclasscode=%{
  static {
    NativeLibrary.load();
  }
%}
