/**
 * Pure helpers over the trees the server answers (tree resources' lists, picker trees, grant trees): no
 * React, so they are unit-tested (tree.test.ts).
 */

export interface TreeLike {
  id?: string;
  key?: string;
  value?: string;
  children?: TreeLike[] | null;
}

const keyOf = (n: TreeLike): string => String(n.key ?? n.value ?? n.id ?? '');

/** Drops empty `children` arrays, so a leaf row is not shown as expandable. */
export function stripEmptyChildren<T extends TreeLike>(nodes: T[] | null | undefined): T[] {
  return (nodes ?? []).map((n) => {
    const { children, ...rest } = n;
    if (!children?.length) return rest as T;
    return { ...rest, children: stripEmptyChildren(children) } as T;
  });
}

/** Keys of every node that has children (to expand a whole tree). */
export function branchKeys(nodes: TreeLike[] | null | undefined): string[] {
  const out: string[] = [];
  const walk = (list: TreeLike[]) => {
    for (const n of list) {
      if (n.children?.length) {
        out.push(keyOf(n));
        walk(n.children);
      }
    }
  };
  walk(nodes ?? []);
  return out;
}

/** Keys of every node. */
export function allKeys(nodes: TreeLike[] | null | undefined): string[] {
  const out: string[] = [];
  const walk = (list: TreeLike[]) => {
    for (const n of list) {
      out.push(keyOf(n));
      if (n.children?.length) walk(n.children);
    }
  };
  walk(nodes ?? []);
  return out;
}

/** child key → parent key, for every node below a root. */
export function parentIndex(nodes: TreeLike[] | null | undefined): Map<string, string> {
  const parents = new Map<string, string>();
  const walk = (list: TreeLike[], parent?: string) => {
    for (const n of list) {
      const k = keyOf(n);
      if (parent !== undefined) parents.set(k, parent);
      if (n.children?.length) walk(n.children, k);
    }
  };
  walk(nodes ?? []);
  return parents;
}

/** A node and every node below it. */
export function subtreeKeys(nodes: TreeLike[] | null | undefined, key: string): string[] {
  const find = (list: TreeLike[]): TreeLike | undefined => {
    for (const n of list) {
      if (keyOf(n) === key) return n;
      const hit = n.children?.length ? find(n.children) : undefined;
      if (hit) return hit;
    }
    return undefined;
  };
  const node = find(nodes ?? []);
  return node ? allKeys([node]) : [];
}

/**
 * What a conducting checkable tree should show as checked for a granted set that includes parents: the
 * leaves, and the parents all of whose descendants are granted. A parent with only some descendants granted
 * shows half-checked by itself (the tree computes that).
 */
export function checkedForDisplay(nodes: TreeLike[] | null | undefined, granted: Iterable<string>): string[] {
  const set = new Set(granted);
  const out: string[] = [];
  // returns whether the node and all of its descendants are granted
  const walk = (n: TreeLike): boolean => {
    const k = keyOf(n);
    if (!n.children?.length) {
      if (set.has(k)) out.push(k);
      return set.has(k);
    }
    let all = true;
    for (const c of n.children) if (!walk(c)) all = false;
    if (all && set.has(k)) out.push(k);
    return all && set.has(k);
  };
  for (const n of nodes ?? []) walk(n);
  return out;
}

/**
 * The set to save from a conducting tree's checked keys: those keys plus every ancestor of them (the
 * half-checked parents), so a granted button's menu and a granted menu's parents show in the user's menu.
 */
export function withAncestors(nodes: TreeLike[] | null | undefined, checked: Iterable<string>): string[] {
  const parents = parentIndex(nodes);
  const out = new Set<string>();
  for (const k of checked) {
    let cur: string | undefined = k;
    while (cur !== undefined && !out.has(cur)) {
      out.add(cur);
      cur = parents.get(cur);
    }
  }
  // keep the tree's order (stable output for the server and for tests)
  const order = allKeys(nodes);
  const known = order.filter((k) => out.has(k));
  const unknown = [...out].filter((k) => !order.includes(k));
  return [...known, ...unknown];
}
