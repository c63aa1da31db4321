import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/*
 * The desktop app runs the tsc build of electron/ and shared/ (tsconfig.electron.json, dist/):
 * a module it imports that the build does not emit fails at run time there only (an engine
 * thread's import of the plain-JavaScript compile-cache.js did: ERR_MODULE_NOT_FOUND), while
 * the CLI's bundle and the tests, which read the sources, work.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');

function desktopProgramFiles(): string[] {
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(ROOT, 'tsconfig.electron.json'), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  });
  return parsed!.fileNames.map((f) => path.resolve(f));
}

/** Relative imports of a file, static and dynamic, as written. */
const relativeImports = (text: string): string[] =>
  [...text.matchAll(/(?:from\s+|import\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]!);

describe('the desktop build', () => {
  it('emits every module its own files import: a .js import is a .ts source or a .js file in the build', () => {
    const files = desktopProgramFiles();
    const inBuild = new Set(files);
    const missing: string[] = [];
    let jsSources = 0;
    for (const file of files) {
      for (const spec of relativeImports(readFileSync(file, 'utf8'))) {
        const target = path.resolve(path.dirname(file), spec);
        const source = target.replace(/\.js$/, '.ts');
        if (spec.endsWith('.js') && !existsSync(source) && existsSync(target)) {
          jsSources++;
          if (!inBuild.has(target)) missing.push(`${path.relative(ROOT, file)} imports ${spec}`);
        }
      }
    }
    expect(jsSources).toBeGreaterThan(0);
    expect(missing).toEqual([]);
  });
});
