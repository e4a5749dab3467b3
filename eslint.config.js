// ESLint's flat config for the browser code (frontend/static/frontend/*.js, native ES modules
// loaded as they are: no bundler). `make lint` runs it; `npm ci` installs it (scripts/bootstrap.sh).
import js from "@eslint/js";
import globals from "globals";

export default [
  // only our own code: not the installed packages, the built docs site or vendored docs assets
  { ignores: ["node_modules/", ".venv/", "var/", "site/", "docs/"] },
  js.configs.recommended,
  {
    files: ["frontend/static/frontend/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser },
    },
    rules: {
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none", ignoreRestSiblings: true }],
      "no-implicit-globals": "error",
      "no-restricted-globals": ["error", { name: "Warboard", message: "Import from the module instead." }],
      eqeqeq: ["error", "always"],
      "prefer-const": "error",
      "no-var": "error",
    },
  },
  {
    // The service worker: a classic script (served from /sw.js), in the worker's global scope.
    files: ["frontend/static/frontend/service_worker.js"],
    languageOptions: { sourceType: "script", globals: { ...globals.serviceworker } },
  },
  {
    files: ["eslint.config.js"],
    languageOptions: { sourceType: "module", globals: { ...globals.node } },
  },
];
