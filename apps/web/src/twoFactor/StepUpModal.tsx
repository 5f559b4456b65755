/**
 * The console's step-up host (docs/identity.md): mounted once in the console, it answers the HTTP
 * client's requests (api/stepUp.ts) when a dangerous call was refused with 403 STEP_UP_REQUIRED by
 * showing the dialog (StepUpDialog.tsx: antd Modal, Input, Alert, loaded with the first request, not
 * with every page) and passing its answer back.
 */
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { setStepUpPrompt } from '../api/stepUp';

const StepUpDialog = lazy(() => import('./StepUpDialog'));

/** Mounts the prompt the HTTP client asks; renders the dialog from the first request on. */
export function StepUpModal() {
  const [open, setOpen] = useState(false);
  // Each request gets a fresh dialog (its key): a reopened one stayed transparent behind its mask (seen in Chromium).
  const [round, setRound] = useState(0);
  const answer = useRef<(proven: boolean) => void>(undefined);

  useEffect(() => {
    setStepUpPrompt(() => new Promise<boolean>((resolve) => {
      answer.current = resolve;
      setRound((value) => value + 1);
      setOpen(true);
    }));
    return () => setStepUpPrompt(undefined);
  }, []);

  const finish = (proven: boolean) => {
    setOpen(false);
    answer.current?.(proven);
    answer.current = undefined;
  };
  return round === 0 ? null : <Suspense fallback={null}><StepUpDialog key={round} open={open} onAnswer={finish} /></Suspense>;
}
