/** The dashboard's public surface: its screen and its reads (the route's loader starts them). */
export { DashboardScreen } from './dashboard-screen';
export { dashboardQuery } from './api/dashboard';
