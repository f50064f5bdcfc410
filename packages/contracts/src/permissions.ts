export const PERMISSIONS = ['reports.submit_report', 'reports.handle_reports', 'reports.view_reports', 'sanctions.read', 'sanctions.write', 'reports.read_outcomes'] as const;
export type Permission = (typeof PERMISSIONS)[number];

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}
