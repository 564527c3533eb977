/**
 * Registers the list page's strings (crud.*) when a chunk that uses them loads, so /login never carries
 * them. Imported by CrudPage and by screens that use crud.* without it.
 */
import { addBundle } from '../i18n';
import { crudEn, crudZh } from './strings';

declare module '../i18n' {
  interface ChunkBundles {
    crud: typeof crudZh;
  }
}

addBundle('crud', crudZh, crudEn);
