import { AGRI_MAP_DEFAULTS, AGRI_MAP_PARAMS, type AgriMapSettings } from '@smart/contracts';
import type { Db } from '../../platform/db';
import { tenantParamValue } from '../system/params';

/**
 * The map's tile source for a tenant: its own parameters, else everyone's, else the defaults. One map for
 * the village: the plots' map and the tourism places' map read the same (`…/map/settings`).
 */
export async function mapSettings(db: Db, tenantId: string): Promise<AgriMapSettings> {
  const read = (k: keyof typeof AGRI_MAP_PARAMS) =>
    tenantParamValue(db, AGRI_MAP_PARAMS[k], tenantId, AGRI_MAP_DEFAULTS[k]);
  const crs = await read('crs');
  return {
    tiles: await read('tiles'),
    key: await read('key'),
    crs: crs === 'gcj02' || crs === 'bd09' ? crs : 'wgs84',
    subdomains: await read('subdomains'),
  };
}
