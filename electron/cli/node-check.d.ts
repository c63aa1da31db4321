// Types of node-check.js (plain JavaScript so that an old Node can run it).
export declare const NODE_DOWNLOAD: string;
export declare function requiredNode(): [number, number, number];
export declare function nodeTooOld(version: string, required?: readonly number[]): string | null;
export declare function exitIfNodeTooOld(): void;
