// Key names on Redis, for every feature's Redis adapter: `<prefix><kind>:<id>`, and for Redis
// Cluster, where a Lua script may touch only the keys it is given in KEYS and all of them must
// hash to one slot. Redis hashes only the part of a name between the first `{` and the next `}`
// when there is one (a hash tag), so keys that one script touches share a tag. And the one script
// several features run (DELETE_IF). No ioredis here: this module is names and text only.

/** A key of the store's: its prefix (several shops may share one Redis), the kind of thing, its id. */
export const keyOf = (prefix: string, kind: string, id: string): string => `${prefix}${kind}:${id}`;

/** Whether Redis would hash `name` by a tag: a `{` followed later by a `}` with something between. */
function hasHashTag(name: string): boolean {
  const open = name.indexOf('{');
  return open >= 0 && name.indexOf('}', open + 1) > open + 1;
}

/**
 * The start of every key of one group (the spend ledger's), as a hash tag: `{tryon:spend}`. A
 * prefix that carries a tag of its own keeps it, and then every key of the proxy shares its slot.
 */
export function taggedGroup(prefix: string, group: string): string {
  return hasHashTag(prefix) ? `${prefix}${group}` : `{${prefix}${group}}`;
}

/**
 * A key in the same slot as `key`, which keeps its untagged name (renaming a forgotten photo's key
 * would forget every photo forgotten under it while its handles still live): the new key's tag is
 * the whole of that name, which Redis hashes exactly as the untagged name itself.
 */
export function besideKey(key: string, suffix: string): string {
  return hasHashTag(key) ? `${key}${suffix}` : `{${key}}${suffix}`;
}

/**
 * Deletes KEYS[1] only if it still holds ARGV[1]: a poll right given back by its holder, a garment
 * file id forgotten unless another instance replaced it, a lock released by its token.
 */
export const DELETE_IF = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;
