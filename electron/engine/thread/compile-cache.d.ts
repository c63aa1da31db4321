// Types of compile-cache.js (plain JavaScript so that bin.js loads it before any TypeScript).
export declare function compileCacheDir(env?: NodeJS.ProcessEnv): string;
export declare const COMPILE_CACHE_MAX_AGE_DAYS: number;
export declare function pruneCompileCache(dir: string, now?: number): number;
