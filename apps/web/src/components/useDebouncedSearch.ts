/**
 * The shared pause before a typed search is sent: the remote selects search on the server,
 * and one request per keystroke sent about 14 requests, most of them cancelled, while an IMEI was typed.
 */
import { useEffect, useState } from 'react';

/** How long typing must pause before the search is sent, ms. */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * `text` once it has stayed unchanged for SEARCH_DEBOUNCE_MS; an emptied search at once (clearing the
 * box, or choosing an option, shows the unfiltered list without waiting).
 */
export function useDebouncedSearch(text: string): string {
  const [settled, setSettled] = useState(text);
  useEffect(() => {
    if (text === '') {
      setSettled('');
      return;
    }
    const timer = setTimeout(() => setSettled(text), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return text === '' ? '' : settled;
}
