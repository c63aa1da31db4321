// Type-aware lint plus import fences: what may import what is part of the design.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const nodeOnly = ['electron', 'env-paths', 'ws', 'autocannon', 'hdr-histogram-js'];
const fence = (extra = []) => ({
  'no-restricted-imports': [
    'error',
    {
      paths: [...nodeOnly, ...extra].map((name) => ({
        name,
        message: `${name} is Node-only; keep it out of shared/ and renderer/.`,
      })),
      patterns: [
        {
          group: [
            'node:*',
            'fs',
            'path',
            'os',
            'net',
            'tls',
            'http',
            'https',
            'http2',
            'child_process',
            'worker_threads',
          ],
          message: 'Node built-ins are not allowed here.',
        },
        {
          group: ['**/electron/**'],
          message: 'Talk to the host through the API bridge, not by importing electron/ code.',
        },
      ],
    },
  ],
});

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-artifacts/**', 'out/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        project: ['./tsconfig.json', './tsconfig.web.json'],
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'autocannon', message: 'autocannon is used by the engine only (electron/engine/).' },
          ],
        },
      ],
    },
  },
  { files: ['electron/engine/**'], rules: { 'no-restricted-imports': 'off' } },
  { files: ['shared/**'], rules: fence(['react', 'react-dom', 'chart.js']) },
  {
    files: ['renderer/**'],
    ignores: ['renderer/vite.config.ts'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules, ...fence() },
  },
  { files: ['**/*.js', '**/*.cjs'], extends: [tseslint.configs.disableTypeChecked] },
);
