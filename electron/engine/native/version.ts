/** The native load generator's version, reported as the result's engineVersion (a module of its own so hosts can name it without loading the load generator). */
export const NATIVE_ENGINE_VERSION = '1.0.0';
