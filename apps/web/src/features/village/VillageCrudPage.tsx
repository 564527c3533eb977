/**
 * Kept only so that OverviewPage.tsx (being changed elsewhere) still builds: the generic CrudPage now does
 * everything this wrapper used to add (reference names, yes/no words, images, Excel). Delete this file once
 * OverviewPage imports CrudPage from platform/crud directly.
 */
export { CrudPage as VillageCrudPage } from '../../platform/crud/CrudPage';
