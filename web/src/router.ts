/**
 * The console's pages under /console/ (HTML5 history; the service answers index.html for every page path), each
 * its own chunk. Pages a role does not see redirect to its first page; without a session, to /login. After each
 * page change the roles the person holds are read again (session.ts `refreshRoles`).
 */
import { createRouter, createWebHistory, type RouteRecordRaw } from 'vue-router';
import type { Role } from './api/types';
import { homeOf, loadSession, PAGES, refreshRoles, session } from './session';

declare module 'vue-router' {
  interface RouteMeta {
    public?: boolean;
    roles?: Role[];
    title?: string;
  }
}

const pageRoles = (path: string) => PAGES.find((p) => p.path === path)!.roles;
const page = (path: string, title: string, component: RouteRecordRaw['component']): RouteRecordRaw =>
  ({ path: path.slice(1), component, meta: { roles: pageRoles(path), title } }) as RouteRecordRaw;

const routes: RouteRecordRaw[] = [
  { path: '/login', component: () => import('./pages/LoginPage.vue'), meta: { public: true, title: '登录' } },
  { path: '/devices/print', component: () => import('./pages/DevicePrintPage.vue'), meta: { roles: pageRoles('/devices'), title: '打印设备码' } },
  { path: '/work-orders/print', component: () => import('./pages/WorkOrderPrintPage.vue'), meta: { roles: pageRoles('/work-orders'), title: '打印工票' } },
  {
    path: '/',
    component: () => import('./components/ShellLayout.vue'),
    children: [
      { path: '', redirect: () => homeOf(session.account?.role) },
      page('/review', '审核', () => import('./pages/ReviewPage.vue')),
      page('/dashboard', '看板', () => import('./pages/DashboardPage.vue')),
      // defect reasons
      page('/quality', '质量', () => import('./pages/QualityPage.vue')),
      page('/reports', '报工单', () => import('./pages/ReportsPage.vue')),
      { path: 'reports/:reportId', component: () => import('./pages/ReportPage.vue'), meta: { roles: pageRoles('/reports'), title: '报工单' } },
      page('/wages', '工资', () => import('./pages/WagesPage.vue')),
      page('/periods', '月结', () => import('./pages/PeriodsPage.vue')),
      page('/products', '产品', () => import('./pages/ProductsPage.vue')),
      page('/defect-reasons', '不良原因', () => import('./pages/DefectReasonsPage.vue')),
      // downtime
      page('/oee', '设备效率', () => import('./pages/OeePage.vue')),
      page('/stop-reasons', '停机原因', () => import('./pages/StopReasonsPage.vue')),
      page('/people', '人员', () => import('./pages/PeoplePage.vue')),
      page('/devices', '设备码', () => import('./pages/DevicesPage.vue')),
      // organization
      page('/organization', '车间班组', () => import('./pages/OrganizationPage.vue')),
      // shifts
      page('/shifts', '班次', () => import('./pages/ShiftsPage.vue')),
      // work orders
      page('/work-orders', '工单', () => import('./pages/WorkOrdersPage.vue')),
      { path: 'work-orders/:orderNo', component: () => import('./pages/WorkOrderPage.vue'), meta: { roles: pageRoles('/work-orders'), title: '工单' } },
    ],
  },
  { path: '/:rest(.*)*', redirect: '/' },
];

export const router = createRouter({ history: createWebHistory('/console/'), routes });

router.beforeEach(async (to) => {
  if (!session.checked) await loadSession().catch(() => null);
  if (to.meta.public) return true;
  if (!session.account) return { path: '/login', query: to.fullPath === '/' ? {} : { next: to.fullPath } };
  const roles = to.meta.roles;
  if (roles && !roles.includes(session.account.role)) return homeOf(session.account.role);
  return true;
});

router.afterEach((to) => {
  // The roles held may have changed since the last page (a role given by someone else): the menu offers them.
  if (!to.meta.public) void refreshRoles();
  document.title = to.meta.title ? `${to.meta.title} · 报工管理后台` : '报工管理后台';
});
