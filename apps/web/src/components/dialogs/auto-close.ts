/**
 * A dialog's self-closing timer: fires after `ms` unless cancelled. Any click or key press cancels it,
 * so a user who starts reading or acting keeps the dialog.
 */
export function startAutoClose(
  ms: number,
  onTimeout: () => void,
  target: Pick<Document, 'addEventListener' | 'removeEventListener'> = document,
) {
  let timer: ReturnType<typeof setTimeout> | undefined = setTimeout(() => {
    cancel();
    onTimeout();
  }, ms);
  const cancel = () => {
    clearTimeout(timer);
    timer = undefined;
    target.removeEventListener('mousedown', cancel, true);
    target.removeEventListener('keydown', cancel, true);
    target.removeEventListener('touchstart', cancel, true);
  };
  target.addEventListener('mousedown', cancel, true);
  target.addEventListener('keydown', cancel, true);
  target.addEventListener('touchstart', cancel, true);
  return {
    cancel,
    get active() {
      return timer !== undefined;
    },
  };
}
