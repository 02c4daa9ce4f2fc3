package org.dbdf;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * Calls the public overload that matches the run-time classes of the arguments. The API has one overload per kind
 * of value buffer instead of an Object parameter; tests that choose the value type at run time hold their values as
 * an Object (see {@link TestData}) and reach the typed overload through here.
 */
final class TypedOverloads {
    private TypedOverloads() {
    }

    /**
     * Calls {@code target.name(arguments)}. A boxed number stands for a primitive parameter (Method.invoke unboxes
     * and widens it); every other argument must be an instance of its parameter's class. Exceptions thrown by the
     * method are rethrown as they are, so that assertThrows sees them.
     */
    static Object call(Object target, String name, Object... arguments) {
        for (Method method : target.getClass().getMethods()) {
            if (method.getName().equals(name) && accepts(method.getParameterTypes(), arguments)) {
                try {
                    return method.invoke(target, arguments);
                } catch (InvocationTargetException thrown) {
                    if (thrown.getCause() instanceof RuntimeException failure) {
                        throw failure;
                    }
                    if (thrown.getCause() instanceof Error failure) {
                        throw failure;
                    }
                    throw new AssertionError(thrown.getCause());
                } catch (IllegalAccessException inaccessible) {
                    throw new AssertionError(inaccessible);
                }
            }
        }
        throw new AssertionError("no public overload " + target.getClass().getSimpleName() + "." + name + " takes "
                + Arrays.stream(arguments).map(argument -> argument == null ? "null" : argument.getClass().getName())
                        .toList());
    }

    private static boolean accepts(Class<?>[] parameters, Object[] arguments) {
        if (parameters.length != arguments.length) {
            return false;
        }
        for (int index = 0; index < parameters.length; index++) {
            Object argument = arguments[index];
            boolean fits = parameters[index].isPrimitive() ? argument instanceof Number
                    : argument == null || parameters[index].isInstance(argument);
            if (!fits) {
                return false;
            }
        }
        return true;
    }
}
