/**
 * Route path -> its page module, loaded on first use (pages/registry.ts) or ahead of it: one line per
 * route of the contract's page tree, typed by the contract's PagePath, so a route without a page, or a
 * misspelt path, fails the type check. No run-time imports.
 */
import type { PagePath } from '@iot/contract';
import type { ComponentType } from 'react';

/** Loads a page module: its default export is the page. */
type PageLoader = () => Promise<{ default: ComponentType }>;
type LogPage = 'OperateUserLogPage' | 'OperatePasswordLogPage' | 'OperateCardLogPage' | 'OperateFpLogPage';

const logPage = (name: LogPage): PageLoader => () => import('./credential/logPages').then((module) => ({ default: module[name] }));

/** Each route's page module (loaded on first use, or ahead of it by `preloadPage`). */
export const PAGE_LOADERS: Readonly<Record<PagePath, PageLoader>> = {
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
  '/renew': () => import('./wx/RenewPage'),
  '/orderManagement': () => import('./wx/OrderManagementPage'),
  '/subscriptionManagement': () => import('./subscriptionManagement/SubscriptionManagementPage'),
  '/Datavisualization': () => import('../screen/DataScreen'),
};
