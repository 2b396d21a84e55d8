/**
 * The pack screen's writes, one at a time in the order the packer asked for them: a task starts when
 * the one before it has settled (done or refused). A Ship clicked while the package's Save is still
 * on its way therefore ships the saved package, never the one the server had before the save.
 */
export function createOneAtATime(): <T>(task: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>): Promise<T> => {
    const result = tail.then(task);
    tail = result.catch(() => undefined);
    return result;
  };
}

/** What a package card's form holds, as sent to `package/save` (blank fields are left out). */
export interface PackageForm {
  weight: string;
  carrier: string;
  tracking: string;
}

/** The form's non-blank fields, trimmed: the body of a save. */
export function formChanges(form: PackageForm): Partial<PackageForm> {
  const out: Partial<PackageForm> = {};
  for (const key of ['weight', 'carrier', 'tracking'] as const) {
    const v = form[key].trim();
    if (v) out[key] = v;
  }
  return out;
}

/** Whether the form holds something the server has not acknowledged (a blank field changes nothing: saves never clear). */
export function formDirty(form: PackageForm, saved: PackageForm): boolean {
  const changes = formChanges(form);
  return (['weight', 'carrier', 'tracking'] as const).some((key) => {
    const v = changes[key];
    if (v === undefined) return false;
    return key === 'weight' ? Number(v) !== Number(saved.weight || Number.NaN) : v !== saved[key].trim();
  });
}

/**
 * The carrier that asks for a weight the package would ship without (contract shipProblem: a named
 * carrier needs a weight above 0), judged on what a Ship sends: the saved package with the form's
 * changes saved first. Undefined when nothing is missing.
 */
export function weightNeededBy(form: PackageForm, saved: PackageForm): string | undefined {
  const sent = { ...saved, ...formChanges(form) };
  const carrier = sent.carrier.trim();
  if (!carrier) return undefined;
  return Number(sent.weight) > 0 ? undefined : carrier;
}
