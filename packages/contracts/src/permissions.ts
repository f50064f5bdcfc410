/** `privacy.manage`: data subject requests and legal holds (/v1/privacy); no key holds it unless given (admins hold every permission). */
/** `sanctions.lift_any`: lift any sanction through the sanctions API, not only the key's own (admins hold every permission). */
export const PERMISSIONS = ['reports.submit_report', 'reports.handle_reports', 'reports.view_reports', 'sanctions.read', 'sanctions.write', 'sanctions.lift_any', 'reports.read_outcomes', 'appeals.submit', 'privacy.manage'] as const;
export type Permission = (typeof PERMISSIONS)[number];

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}
