// Lint gate run by .ci/run: typescript-eslint's type-checked recommendations, formatting left to prettier.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

// The folders' "never" imports (the architecture's one-way flow): a wrong-way import fails the lint.
const never = {
  agent: ['tools', 'model', 'session', 'github', 'git', 'config', 'extensions', 'action', 'cli'],
  model: ['agent', 'tools', 'session', 'action'],
  tools: ['github', 'agent', 'session', 'action', 'cli'],
  report: ['tools', 'github'],
  session: ['action', 'cli'],
  sandbox: ['tools'],
};
const boundaries = Object.entries(never).map(([folder, banned]) => ({
  files: [`src/${folder}/**/*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: `^(\\.\\./)+(${banned.join('|')})(/|$)`,
            message: `src/${folder}/ must not import these folders: ${banned.join(', ')} (see README, Architecture)`,
          },
        ],
      },
    ],
  },
}));

export default tseslint.config(
  { ignores: ['dist/', '.tmp/', 'node_modules/', 'coverage/', 'src/tools/specs.generated.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    // Tests build loose fixtures (expect.any, async fakes): these rules would only add noise there.
    files: ['__tests__/**/*.ts'],
    rules: { '@typescript-eslint/no-unsafe-assignment': 'off', '@typescript-eslint/require-await': 'off', 'no-regex-spaces': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      parserOptions: { projectService: false },
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly' },
    },
  },
  ...boundaries,
  prettier,
);
