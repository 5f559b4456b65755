/** Dropping one data centre's cached answers when the user switches to another (console header, big screen). */
import { queryClient } from '../api/queryClient';
import { USER_INFO_KEY } from '../hooks/useSession';

/** Query key of the data-centre list (the header's selector, kept across a switch). */
export const DATA_CENTRES_KEY = ['dataCentres'] as const;

const SESSION_WIDE = new Set<unknown>([USER_INFO_KEY[0], DATA_CENTRES_KEY[0]]);

/** Removes every cached query but the session-wide ones (user info, data-centre list) and refreshes the user info. */
export function dropTenantData(): void {
  queryClient.removeQueries({ predicate: (query) => !SESSION_WIDE.has(query.queryKey[0]) });
  void queryClient.invalidateQueries({ queryKey: USER_INFO_KEY });
}
