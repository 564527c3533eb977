/**
 * Registers the list page's strings (crud.*) when a chunk that uses them loads, so /login never carries
 * them. Imported by CrudPage and by screens that use crud.* without it.
 */
import { i18n } from '../i18n';
import { crudEn, crudZh } from './strings';

i18n.addResourceBundle('zh', 'translation', { crud: crudZh }, true, false);
i18n.addResourceBundle('en', 'translation', { crud: crudEn }, true, false);
