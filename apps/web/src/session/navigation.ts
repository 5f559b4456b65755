/** Lets non-React code (HTTP client, sign-out) navigate through the router once it exists. */
let navigateImpl: (to: string) => void = (to) => window.location.assign(`${import.meta.env.BASE_URL.replace(/\/$/, '')}${to}`);

/** Registers the router's navigate function. */
export function setNavigator(navigate: (to: string) => void): void {
  navigateImpl = navigate;
}

/** Navigates to an in-app path (without the /api base). */
export function navigateTo(to: string): void {
  navigateImpl(to);
}
