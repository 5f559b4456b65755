/**
 * Page registry: route path -> lazily loaded page, one line per route of the contract's page tree.
 * Typed by the contract's PagePath, so a route without a page, or a misspelt path, fails the type
 * check.
 */
import type { PagePath } from '@iot/contract';
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

type Page = LazyExoticComponent<ComponentType>;

const HomePage = lazy(() => import('./homepage/HomePage'));
const LockInfoPage = lazy(() => import('./lock/LockInfoPage'));
const EquipmentTypePage = lazy(() => import('./equipmentType/EquipmentTypePage'));
const InformationPage = lazy(() => import('./information/InformationPage'));
const GroupManagementPage = lazy(() => import('./groupManagement/GroupManagementPage'));
const CommandUpLogPage = lazy(() => import('./commandUpLog/CommandUpLogPage'));
const HeartbeatLogPage = lazy(() => import('./heartbeatLog/HeartbeatLogPage'));
const LockAlertLogPage = lazy(() => import('./lockAlertLog/LockAlertLogPage'));
const LockAlertPage = lazy(() => import('./lockAlert/LockAlertPage'));
const LockOpenRecordLogPage = lazy(() => import('./lockOpenRecordLog/LockOpenRecordLogPage'));
const LockJournalPage = lazy(() => import('./lockJournal/LockJournalPage'));
const SubscriptionManagementPage = lazy(() => import('./subscriptionManagement/SubscriptionManagementPage'));
const LoginAccountPage = lazy(() => import('./loginAccount/LoginAccountPage'));
const RolePermissionsPage = lazy(() => import('./rolePermissions/RolePermissionsPage'));
const BindingRolesPage = lazy(() => import('./bindingRoles/BindingRolesPage'));
const SystemLogPage = lazy(() => import('./systemLog/SystemLogPage'));
const CommandDownLogPage = lazy(() => import('./commandDownLog/CommandDownLogPage'));
const LockConfigPage = lazy(() => import('./lockConfig/LockConfigPage'));
const VoucherPasswordManagePage = lazy(() => import('./credential/VoucherPasswordManagePage'));
const VoucherUserManagePage = lazy(() => import('./credential/VoucherUserManagePage'));
const VoucherCardManagePage = lazy(() => import('./credential/VoucherCardManagePage'));
const VoucherFpManagePage = lazy(() => import('./credential/VoucherFpManagePage'));
const logPage = (name: 'OperateUserLogPage' | 'OperatePasswordLogPage' | 'OperateCardLogPage' | 'OperateFpLogPage') =>
  lazy(() => import('./credential/logPages').then((module) => ({ default: module[name] })));
const VoucherScheduleManagePage = lazy(() => import('./accessSchedule/VoucherScheduleManagePage'));
const HolidayCalendarPage = lazy(() => import('./holidayCalendar/HolidayCalendarPage'));
const RenewPage = lazy(() => import('./wx/RenewPage'));
const OrderManagementPage = lazy(() => import('./wx/OrderManagementPage'));
const LockSurveyPage = lazy(() => import('./lockSurvey/LockSurveyPage'));
const RoomInquiryPage = lazy(() => import('./roomInquiry/RoomInquiryPage'));
const AirSwitchAnalysisPage = lazy(() => import('./airSwitch/AirSwitchAnalysisPage'));
const FirmwareRulePage = lazy(() => import('./firmwareRule/FirmwareRulePage'));
const DataScreen = lazy(() => import('../screen/DataScreen'));

/** The login screen. */
export const LoginPage = lazy(() => import('./login/LoginPage'));

const PAGES: Record<PagePath, Page> = {
  '/homepage': HomePage,
  '/loginAccount': LoginAccountPage,
  '/rolePermissions': RolePermissionsPage,
  '/bindingRoles': BindingRolesPage,
  '/systemLog': SystemLogPage,
  '/lockAnalysis': HomePage,
  '/lockInfo': LockInfoPage,
  '/lockConfig': LockConfigPage,
  '/commandDownLog': CommandDownLogPage,
  '/commandUpLog': CommandUpLogPage,
  '/heartbeatLog': HeartbeatLogPage,
  '/lockAlertLog': LockAlertLogPage,
  '/lockAlert': LockAlertPage,
  '/lockOpenRecordLog': LockOpenRecordLogPage,
  '/lockJournal': LockJournalPage,
  '/lockSurvey': LockSurveyPage,
  '/RoomInquiry': RoomInquiryPage,
  '/equipmentType': EquipmentTypePage,
  '/Information': InformationPage,
  '/groupManagement': GroupManagementPage,
  '/voucherUserManage': VoucherUserManagePage,
  '/voucherPasswordManage': VoucherPasswordManagePage,
  '/voucherCardManage': VoucherCardManagePage,
  '/voucherFpManage': VoucherFpManagePage,
  '/voucherScheduleManage': VoucherScheduleManagePage,
  '/holidayCalendar': HolidayCalendarPage,
  '/operateUserLog': logPage('OperateUserLogPage'),
  '/operatePasswordLog': logPage('OperatePasswordLogPage'),
  '/operateCardLog': logPage('OperateCardLogPage'),
  '/operateFpLog': logPage('OperateFpLogPage'),
  // Not built yet: the explicit placeholder.
  '/airSwitchAnalysis': AirSwitchAnalysisPage,
  '/firmwareRule': FirmwareRulePage,
  '/renew': RenewPage,
  '/orderManagement': OrderManagementPage,
  '/subscriptionManagement': SubscriptionManagementPage,
  '/Datavisualization': DataScreen,
};

/** The page component of a route path. */
export function pageFor(path: PagePath): Page {
  return PAGES[path];
}
