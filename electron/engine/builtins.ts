import type cryptoModule from 'node:crypto';
import type tlsModule from 'node:tls';

/*
 * Node built-ins that cost a start dearly and that a plain-http run never uses, loaded at their
 * first use instead of by a static import: node:tls about 40 ms of CPU, node:crypto 15 ms
 * (measured here, each in every thread that imports it: the CLI and each engine thread).
 */

/** node:tls (https targets, TLS probes). */
export const loadTls = (): typeof tlsModule => process.getBuiltinModule('node:tls');

/** node:crypto (CA files, ids, hashes). */
export const loadCrypto = (): typeof cryptoModule => process.getBuiltinModule('node:crypto');
