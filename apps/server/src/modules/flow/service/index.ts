/**
 * The workflow service, by responsibility: deploy.ts (deployments, which definitions a tenant sees),
 * instances.ts (starting, moving on, what a run asks), record.ts and waits.ts (what a run leaves in the
 * tables), outbox.ts (http actions after the commit), tasks.ts (claiming, completing), ending.ts (ending
 * instances before their end). Every running instance's engine state is saved at each wait, so any server
 * (after a restart or a crash) continues it. What the other modules use is here.
 */
export { definitionVisibleTo } from './deploy';
export { type Actor, startableDefinition, startDefinition } from './instances';
export { flowTransaction } from './outbox';
export { claimableBy } from './tasks';
