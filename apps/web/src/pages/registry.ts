/**
 * Page registry: route path -> lazily loaded page, one line per route of the contract's page tree.
 * Typed by the contract's PagePath, so a route without a page, or a misspelt path, fails the type
 * check. The sign-in page is not a lazy route here: it ships with the app (app/router.tsx), which
 * takes it from this module like every other page (the shell imports pages only through the registry).
 */
import type { PagePath } from '@iot/contract';
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** The sign-in page, loaded with the app (no lazy chunk: it is the first page a newcomer sees). */
export { default as LoginPage } from './login/LoginPage';

type Page = LazyExoticComponent<ComponentType>;
type Loader = () => Promise<{ default: ComponentType }>;
type LogPage = 'OperateUserLogPage' | 'OperatePasswordLogPage' | 'OperateCardLogPage' | 'OperateFpLogPage';

const logPage = (name: LogPage): Loader => () => import('./credential/logPages').then((module) => ({ default: module[name] }));

/** Each route's page module (loaded on first use, or ahead of it by `preloadPage`). */
const LOADERS: Record<PagePath, Loader> = {
  '/homepage': () => import('./homepage/HomePage'),
  '/loginAccount': () => import('./loginAccount/LoginAccountPage'),
  '/rolePermissions': () => import('./rolePermissions/RolePermissionsPage'),
  '/bindingRoles': () => import('./bindingRoles/BindingRolesPage'),
  '/systemLog': () => import('./auditLog/AuditLogPage'),
  '/lockAnalysis': () => import('./homepage/HomePage'),
  '/lockInfo': () => import('./lock/LockInfoPage'),
  '/lockConfig': () => import('./lockConfig/LockConfigPage'),
  '/commandDownLog': () => import('./commandDownLog/CommandDownLogPage'),
  '/commandUpLog': () => import('./uplinkLog/UplinkLogPage'),
  '/heartbeatLog': () => import('./heartbeatLog/HeartbeatLogPage'),
  '/lockAlertLog': () => import('./lockAlertLog/LockAlertLogPage'),
  '/lockAlert': () => import('./lockAlert/LockAlertPage'),
  '/lockOpenRecordLog': () => import('./lockOpenRecordLog/LockOpenRecordLogPage'),
  '/lockJournal': () => import('./lockJournal/LockJournalPage'),
  '/lockSurvey': () => import('./lockSurvey/LockSurveyPage'),
  '/RoomInquiry': () => import('./roomInquiry/RoomInquiryPage'),
  '/equipmentType': () => import('./deviceType/DeviceTypePage'),
  '/Information': () => import('./information/InformationPage'),
  '/groupManagement': () => import('./groupManagement/GroupManagementPage'),
  '/voucherUserManage': () => import('./credential/VoucherUserManagePage'),
  '/voucherPasswordManage': () => import('./credential/VoucherPasswordManagePage'),
  '/voucherCardManage': () => import('./credential/VoucherCardManagePage'),
  '/voucherFpManage': () => import('./credential/VoucherFpManagePage'),
  '/voucherScheduleManage': () => import('./accessSchedule/VoucherScheduleManagePage'),
  '/holidayCalendar': () => import('./holidayCalendar/HolidayCalendarPage'),
  '/operateUserLog': logPage('OperateUserLogPage'),
  '/operatePasswordLog': logPage('OperatePasswordLogPage'),
  '/operateCardLog': logPage('OperateCardLogPage'),
  '/operateFpLog': logPage('OperateFpLogPage'),
  '/airSwitchAnalysis': () => import('./airSwitch/AirSwitchAnalysisPage'),
  '/firmwareRule': () => import('./firmwareRule/FirmwareRulePage'),
  '/renew': () => import('./billing/RenewPage'),
  '/orderManagement': () => import('./billing/OrderManagementPage'),
  '/subscriptionManagement': () => import('./subscriptionManagement/SubscriptionManagementPage'),
  '/Datavisualization': () => import('../screen/DataScreen'),
};

const PAGES = new Map<PagePath, Page>();

/**
 * Starts loading a route's page module now (its chunk and the chunks it imports), e.g. at start-up
 * for the route being opened, in parallel with the console's own code (main.tsx).
 */
export function preloadPage(path: PagePath): void {
  void LOADERS[path]().catch(() => undefined); // a failure shows when the page is rendered
}

/** The page component of a route path (one lazy component per path). */
export function pageFor(path: PagePath): Page {
  const known = PAGES.get(path);
  if (known) return known;
  const page = lazy(LOADERS[path]);
  PAGES.set(path, page);
  return page;
}
