/** The native runner's version, reported as the result's engineVersion (a module of its own so hosts can name it without loading the runner). */
export const NATIVE_RUNNER_VERSION = '1.0.0';
