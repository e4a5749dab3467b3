// JSON Patch (RFC 6902) of a view, the ops risk.rules.view_patch makes: the game page applies
// each socket update's patch, the replay viewer each log entry's. Pure: Node imports it in
// tests/frontend/test_game_js_patch.py.
export function applyPatch(doc, ops) {
  // A new document: doc with ops (add / remove / replace on object keys) applied; throws if
  // an op does not fit, so a half-patched view is never kept.
  let result = structuredClone(doc);
  for (const op of ops) {
    const keys = op.path === "" ? [] : op.path.split("/").slice(1).map((k) => k.replace(/~1/g, "/").replace(/~0/g, "~"));
    if (op.path !== "" && !op.path.startsWith("/")) throw new Error(`bad path ${op.path}`);
    if (!["add", "remove", "replace"].includes(op.op)) throw new Error(`unsupported op ${op.op}`);
    if (!keys.length) {
      if (op.op === "remove") throw new Error("cannot remove the whole document");
      result = structuredClone(op.value);
      continue;
    }
    let parent = result;
    for (const key of keys.slice(0, -1)) {
      if (!isObject(parent) || !Object.hasOwn(parent, key)) throw new Error(`no ${op.path}`);
      parent = parent[key];
    }
    const last = keys[keys.length - 1];
    if (!isObject(parent)) throw new Error(`${op.path} is not inside an object`);
    if (op.op !== "add" && !Object.hasOwn(parent, last)) throw new Error(`no ${op.path} to ${op.op}`);
    if (op.op === "remove") delete parent[last];
    else parent[last] = structuredClone(op.value);
  }
  return result;
}

function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
