/** Builds a forest from flat rows by parentId, keeping the rows' order among siblings. */
export function buildTree<T extends { id: string; parentId: string }>(rows: T[]): (T & { children: T[] })[] {
  const nodes = new Map<string, T & { children: T[] }>();
  for (const r of rows) nodes.set(r.id, { ...r, children: [] });
  const roots: (T & { children: T[] })[] = [];
  for (const n of nodes.values()) {
    const parent = nodes.get(n.parentId);
    if (parent && parent !== n) parent.children.push(n);
    else roots.push(n);
  }
  return roots;
}
