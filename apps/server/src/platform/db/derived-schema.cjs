// drizzle-kit reads a schema file's tables from its exports, one export a table, and its loader runs
// this file as CommonJS: every table the engine derives from a definition (platform/crud/model.ts
// `tableOf`, the same objects the server uses) is exported here by the definition's key, so a new entity
// needs no line of its own for its migration. drizzle.config.ts lists this file.
const { RESOURCES } = require('@smart/contracts');
const { tableOf } = require('../crud/model.ts');

for (const def of RESOURCES) if (def.table) module.exports[def.key] = tableOf(def);
