/**
 * Settings of the console itself (the BladeX family's `website` config): fixed at build time, kept in one
 * place so a deployment changes them here.
 */
export const WEBSITE = {
  /** false: the home tab (first page) cannot be closed */
  isFirstPage: false,
  /** body codes the http client rejects silently (no toast, no logout): the caller handles them */
  statusWhiteList: [] as number[],
  /** client errors kept in the local log (oldest dropped first) */
  errorLogMax: 200,
  /** entries sent to the server in one report (the server takes at most 100) */
  errorReportMax: 100,
};
