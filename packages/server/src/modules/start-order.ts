/** Something that starts after what it names in `needs`. */
interface Dependent {
  readonly name: string;
  readonly needs?: readonly string[];
}

/**
 * The order to start `items` in: each after everything it needs, otherwise as listed (so a list already
 * in a valid order is kept as it is). Throws on a name given twice, on a need that names nothing, and
 * on a cycle, naming it.
 */
export function startOrder<T extends Dependent>(items: readonly T[]): T[] {
  const byName = new Map<string, T>();
  for (const item of items) {
    if (byName.has(item.name)) throw new Error(`module ${item.name} is registered twice`);
    byName.set(item.name, item);
  }
  for (const item of items) {
    for (const need of item.needs ?? []) {
      if (!byName.has(need)) throw new Error(`module ${item.name} needs ${need}, which is not registered`);
    }
  }
  const ordered: T[] = [];
  const placed = new Set<string>();
  while (ordered.length < items.length) {
    const next = items.find((item) => !placed.has(item.name) && (item.needs ?? []).every((need) => placed.has(need)));
    if (!next)
      throw new Error(
        `modules depend on each other in a cycle: ${findCycle(
          items.filter((i) => !placed.has(i.name)),
          byName,
        ).join(' → ')}`,
      );
    ordered.push(next);
    placed.add(next.name);
  }
  return ordered;
}

/** One cycle among `left` (each of which waits on another of them), as names from its start back to it. */
function findCycle<T extends Dependent>(left: readonly T[], byName: ReadonlyMap<string, T>): string[] {
  const waiting = new Set(left.map((i) => i.name));
  const path: string[] = [];
  let current = left[0].name;
  // Following an unplaced need from an unplaced module must come back to a name already on the path.
  while (!path.includes(current)) {
    path.push(current);
    current = (byName.get(current)!.needs ?? []).find((need) => waiting.has(need))!;
  }
  return [...path.slice(path.indexOf(current)), current];
}
