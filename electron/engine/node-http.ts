import type httpModule from 'node:http';
import { createRequire } from 'node:module';

/*
 * node:http, loaded with require. An ESM import of it reads every export to build the
 * module's namespace, and its WebSocket getter then loads undici: about 50 ms of CPU at the
 * start of every thread that imports it (each run's engine worker, the CLI). require reads none.
 */
export const http = createRequire(import.meta.url)('node:http') as typeof httpModule;
