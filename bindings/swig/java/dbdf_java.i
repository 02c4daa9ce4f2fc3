/*
 * Java part of dbdf.i: exceptions, buffer typemaps, enum style and class visibility. Generated classes go to the
 * package given with -package (org.dbdf) as package-private classes: the idiomatic API of that package is written
 * by hand on top of them, and nothing generated is reachable from outside it.
 *
 * Arrays cross without copying: they are pinned with GetPrimitiveArrayCritical for the duration of one call
 * (no JNI call happens while they are pinned: the library call itself never calls back into Java). Direct
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
        (*jenv)->Throw(jenv, (jthrowable)exception);
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

/* Element size of a primitive array other than boolean[] and char[], or 0 when `object` is none of them. */
static size_t dbdf_java_array_element_size(JNIEnv *jenv, jobject object) {
    static const struct {
        const char *signature;
        size_t element_size;
    } kinds[] = {{"[D", 8}, {"[J", 8}, {"[F", 4}, {"[I", 4}, {"[S", 2}, {"[B", 1}};
    size_t kind;
    for (kind = 0; kind < sizeof kinds / sizeof kinds[0]; ++kind) {
        jclass array_class = (*jenv)->FindClass(jenv, kinds[kind].signature);
        jboolean matches;
        if (!array_class) {
            return 0;
        }
        matches = (*jenv)->IsInstanceOf(jenv, object, array_class);
        (*jenv)->DeleteLocalRef(jenv, array_class);
        if (matches) {
            return kinds[kind].element_size;
        }
    }
    return 0;
}

/* A value buffer from Java: a primitive array (pinned later) or a direct ByteBuffer (used by address). */
typedef struct dbdf_java_values {
    jarray array;  /* non-NULL when the values are an array still to be pinned / to be released */
    void *address; /* pinned or direct address */
    size_t nbytes;
} dbdf_java_values_t;

/* Fills `values` from `object`; raises a Java exception and returns false when it is neither kind. */
static bool dbdf_java_values_from(JNIEnv *jenv, jobject object, dbdf_java_values_t *values) {
    size_t element_size;
    values->array = NULL;
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
%exception {
    dbdf_swig_reset();
    $action
    if (dbdf_swig_failed()) {
        $cleanup
        dbdf_java_throw_status(jenv, dbdf_swig_status(), dbdf_swig_message(), dbdf_swig_rule(), dbdf_swig_offset());
        dbdf_swig_reset();
        return $null;
    }
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
%typemap(check) (CONST_QUALIFIER void *values, size_t values_nbytes) {
    if (java_values$argnum.array) {
        $1 = ($1_ltype)(*jenv)->GetPrimitiveArrayCritical(jenv, java_values$argnum.array, NULL);
        if (!$1) {
            java_values$argnum.array = NULL;
            return $null; /* OutOfMemoryError pending */
        }
    }
}
%typemap(freearg) (CONST_QUALIFIER void *values, size_t values_nbytes) {
    if (java_values$argnum.array && $1) {
        (*jenv)->ReleasePrimitiveArrayCritical(jenv, java_values$argnum.array, (void *)$1, RELEASE_MODE);
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
%typemap(in) (CTYPE *POINTER_NAME, size_t COUNT_NAME) (jarray pinned_array = NULL) {
    if (!$input) {
        dbdf_java_throw_named(jenv, "java/lang/NullPointerException", "$1_name is null");
        return $null;
    }
    pinned_array = (jarray)$input;
    $1 = NULL;
    $2 = (size_t)(*jenv)->GetArrayLength(jenv, pinned_array);
}
%typemap(check) (CTYPE *POINTER_NAME, size_t COUNT_NAME) {
    $1 = ($1_ltype)(*jenv)->GetPrimitiveArrayCritical(jenv, pinned_array$argnum, NULL);
    if (!$1) {
        pinned_array$argnum = NULL;
        return $null; /* OutOfMemoryError pending */
    }
}
%typemap(freearg) (CTYPE *POINTER_NAME, size_t COUNT_NAME) {
    if (pinned_array$argnum && $1) {
        (*jenv)->ReleasePrimitiveArrayCritical(jenv, pinned_array$argnum, (void *)$1, RELEASE_MODE);
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
