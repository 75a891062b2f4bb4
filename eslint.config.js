// ESLint flat config: rules that catch real bugs, not style (prettier owns the layout, .prettierrc.json).
// Type-aware rules (floating promises, awaiting non-promises) run through the TypeScript project service.
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "node_modules/**",
      "vendor/**",
      "out/**",
      "dist/**",
      "coverage/**",
      ".langgraph_api/**",
      "tmp/**",
      "**/*.d.ts",
    ],
  },
  {
    files: ["**/*.ts"],
    extends: [tseslint.configs.base],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        {
          args: "after-used",
          argsIgnorePattern: "^_",
          varsIgnorePattern: "^_",
          caughtErrors: "none",
          ignoreRestSiblings: true,
        },
      ],
      "@typescript-eslint/no-floating-promises": ["error", { ignoreVoid: true }],
      "@typescript-eslint/await-thenable": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: false }],
      "@typescript-eslint/no-dupe-class-members": "error",
      "@typescript-eslint/no-loss-of-precision": "error",
    },
  },
  {
    files: ["**/*.{js,mjs}"],
    languageOptions: {
      globals: { process: "readonly", console: "readonly", URL: "readonly", document: "readonly", window: "readonly" },
    },
    rules: {
      "no-unused-vars": ["error", { args: "after-used", argsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
  {
    // Both languages: plain bugs.
    files: ["**/*.{ts,js,mjs}"],
    rules: {
      eqeqeq: ["error", "always", { null: "ignore" }],
      "no-cond-assign": ["error", "except-parens"],
      "no-constant-condition": ["error", { checkLoops: false }],
      "no-dupe-else-if": "error",
      "no-dupe-keys": "error",
      "no-duplicate-case": "error",
      "no-fallthrough": "error",
      "no-self-assign": "error",
      "no-self-compare": "error",
      "no-sparse-arrays": "error",
      "no-unreachable": "error",
      "no-unsafe-finally": "error",
      "no-unsafe-negation": "error",
      "use-isnan": "error",
      "valid-typeof": "error",
      "no-useless-catch": "error",
      "no-async-promise-executor": "error",
      "no-compare-neg-zero": "error",
      "no-empty-pattern": "error",
      "no-invalid-regexp": "error",
      "no-unused-labels": "error",
    },
  },
);
