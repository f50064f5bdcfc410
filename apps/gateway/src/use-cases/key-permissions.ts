import type { Permission } from '@rm/contracts';
import type { ApiKeyRecord } from '@rm/storage';

/** Whether a key may do what a permission names: admin keys hold every permission. */
export function keyHasPermission(key: ApiKeyRecord, permission: Permission): boolean {
  return key.admin || key.permissions.includes(permission);
}
