// ESLint's rules for the pages' JavaScript (src/ramsli/server/web/static). The tools are npm packages
// that .ci/run fetches into $RAMSLI_JS_TOOLS, outside the package (no package.json here, nothing
// shipped); CONTRIBUTING.md says how to run them locally.
import { createRequire } from "node:module";
import { homedir } from "node:os";

const tools = createRequire(
  `${process.env.RAMSLI_JS_TOOLS || `${homedir()}/.cache/ramsli-test/js-tools`}/node_modules/`,
);
const js = tools("@eslint/js");
const globals = tools("globals");

const STATIC = "src/ramsli/server/web/static";

export default [
  { files: [`${STATIC}/*.js`], ...js.configs.recommended },
  {
    files: [`${STATIC}/*.js`],
    languageOptions: { ecmaVersion: 2022, sourceType: "script", globals: { ...globals.browser } },
    // an unused caught error or an argument named _x is on purpose
    rules: { "no-unused-vars": ["error", { caughtErrors: "none", argsIgnorePattern: "^_" }] },
  },
  {
    // every page's classic scripts after common.js read what it defines (window.R)
    files: [`${STATIC}/*.js`],
    ignores: [`${STATIC}/common.js`, `${STATIC}/sw.js`],
    languageOptions: { globals: { R: "readonly" } },
  },
  {
    // the table page and the evening pages: ES modules (table.js imports table-*.js, evening.js evening-*.js)
    files: [`${STATIC}/table.js`, `${STATIC}/table-*.js`, `${STATIC}/evening.js`, `${STATIC}/evening-*.js`],
    languageOptions: { sourceType: "module" },
  },
  {
    files: [`${STATIC}/sw.js`],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
];
