/**
 * The bridge between the HTTP client and the console's step-up dialog (
 * twoFactor/StepUpModal.tsx): a call answered 403 STEP_UP_REQUIRED asks the dialog for the
 * authenticator code and is retried once when it was accepted. Calls refused at the same time share
 * one dialog. Without a dialog mounted (the sign-in page), nothing is asked.
 */

/** Opens the dialog; resolves true once the second factor was accepted, false when cancelled. */
type StepUpPrompt = () => Promise<boolean>;

let prompt: StepUpPrompt | undefined;
let pending: Promise<boolean> | undefined;

/** Mounts (or with undefined, unmounts) the dialog that answers step-up requests. */
export function setStepUpPrompt(next: StepUpPrompt | undefined): void {
  prompt = next;
}

/** True while a dialog can answer a step-up request. */
export const canStepUp = () => prompt !== undefined;

/** Asks for the second factor (one dialog for concurrent callers); false when cancelled or no dialog is mounted. */
export function askStepUp(): Promise<boolean> {
  if (!prompt) return Promise.resolve(false);
  pending ??= prompt().finally(() => { pending = undefined; });
  return pending;
}
