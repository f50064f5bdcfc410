import { AppError } from '@rm/contracts';
import { kindsOf, type TriagePolicy } from '@rm/triage';

/** A 400 naming the field and listing what the policy knows (kinds or categories). */
export function unknownName(field: string, what: string, known: string[]): AppError {
  const message = `${field} must be one of the policy's ${what}: ${known.join(', ')}`;
  return new AppError('VALIDATION_FAILED', message, [{ field, message }]);
}

/** Throws a 400 unless the policy knows the kind. */
export function requireKnownKind(policy: TriagePolicy, kind: string, field = 'kind'): void {
  const known = Object.keys(kindsOf(policy));
  if (!known.includes(kind)) throw unknownName(field, 'kinds', known);
}

/** Throws a 400 unless the policy knows the category. */
export function requireKnownCategory(policy: TriagePolicy, category: string, field = 'category'): void {
  const known = Object.keys(policy.categories);
  if (!known.includes(category)) throw unknownName(field, 'categories', known);
}
