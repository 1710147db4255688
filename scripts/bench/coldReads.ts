/**
 * Cold reads of bench:rewards: the OS's page cache dropped (`sync`, then 3 into /proc/sys/vm/drop_caches;
 * root only) so that the next reads find the reward tables' pages only where PostgreSQL's own buffers
 * (shared_buffers, 128 MB here: a few percent of a million-leaf tree's tables) still hold them. Dropping
 * PostgreSQL's buffers would need a restart of a server other work shares, so they stay.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

/** Drops the OS page cache; false when this process may not (not root, or /proc read-only). */
export function dropPageCache(): boolean {
  try {
    execFileSync('sync');
    writeFileSync('/proc/sys/vm/drop_caches', '3\n');
    return true;
  } catch {
    return false;
  }
}
