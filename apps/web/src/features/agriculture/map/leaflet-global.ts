/**
 * leaflet-geoman extends the global `L` when it loads: Leaflet is put there first (imported before geoman
 * by AgriMap; ES modules evaluate their imports in order).
 */
import L from 'leaflet';

(globalThis as unknown as { L: typeof L }).L = L;
