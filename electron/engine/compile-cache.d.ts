// Types of compile-cache.js (plain JavaScript so that bin.js loads it before any TypeScript).
export declare function compileCacheDir(env?: NodeJS.ProcessEnv): string;
