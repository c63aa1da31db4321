// Types of node-check.js (plain JavaScript so that an old Node can run it).
export declare const NODE_DOWNLOAD: string;
export declare function requiredNode(): [number, number, number];
export declare function nodeTooOld(version: string, required?: readonly number[]): string | null;
export declare function exitIfNodeTooOld(): void;
export declare function electronPackageDir(): string | null;
export declare function electronMissing(
  packageDir?: string | null,
  env?: Record<string, string | undefined>,
): string | null;
