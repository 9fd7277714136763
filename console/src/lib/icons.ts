import { Icons, IconSize, type IconName, type IconPaths } from '@blueprintjs/icons';

/**
 * Blueprint's default loader fetches all icons of a size in one ~300 KB chunk the moment any icon renders.
 * The icons this console names get a tiny chunk each instead, so a screen downloads only what it shows; any
 * other name still works through Blueprint's own loader, at that cost. `icons.unit.test.ts` fails when the
 * console names an icon missing here. (Blueprint's components bundle their own icons.)
 */
const paths16 = import.meta.glob<IconPaths>(
  '../../../node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/{add,annotation,arrow-left,arrow-right,bank-account,build,camera,chat,chevron-left,chevron-right,cog,cross,dashboard,database,disable,document,double-caret-vertical,download,duplicate,edit,endorsed,error,exchange,export,eye-open,feed,filter,floppy-disk,globe-network,hand,history,home,horizontal-bar-chart,info-sign,key,lab-test,lock,log-out,menu,new-person,notifications,office,pause,people,person,pie-chart,play,plus,predictive-analysis,pulse,refresh,remove,search,send-message,share,shield,sort-desc,step-backward,step-forward,swap-horizontal,take-action,th,tick,tick-circle,time,timeline-bar-chart,timeline-line-chart,trash,trending-down,trending-up,upload,warning-sign}.js',
  { import: 'default' },
);
const paths20 = import.meta.glob<IconPaths>(
  '../../../node_modules/@blueprintjs/icons/lib/esm/generated/20px/paths/{add,annotation,arrow-left,arrow-right,bank-account,build,camera,chat,chevron-left,chevron-right,cog,cross,dashboard,database,disable,document,double-caret-vertical,download,duplicate,edit,endorsed,error,exchange,export,eye-open,feed,filter,floppy-disk,globe-network,hand,history,home,horizontal-bar-chart,info-sign,key,lab-test,lock,log-out,menu,new-person,notifications,office,pause,people,person,pie-chart,play,plus,predictive-analysis,pulse,refresh,remove,search,send-message,share,shield,sort-desc,step-backward,step-forward,swap-horizontal,take-action,th,tick,tick-circle,time,timeline-bar-chart,timeline-line-chart,trash,trending-down,trending-up,upload,warning-sign}.js',
  { import: 'default' },
);

function find(table: Record<string, () => Promise<IconPaths>>, name: string) {
  const key = Object.keys(table).find((path) => path.endsWith(`/${name}.js`));
  return key ? table[key] : undefined;
}

/** Whether an icon has a chunk of its own at both sizes (16 px, and 20 px for icons drawn at 20 px or larger). */
export const hasOwnChunk = (name: string): boolean => find(paths16, name) !== undefined && find(paths20, name) !== undefined;

async function loadIcon(name: IconName, size: IconSize): Promise<IconPaths> {
  const load = find(size === IconSize.STANDARD ? paths16 : paths20, name);
  if (load) return load();
  const { splitPathsBySizeLoader } = await import('@blueprintjs/icons/lib/esm/paths-loaders/splitPathsBySizeLoader');
  return splitPathsBySizeLoader(name, size);
}

export function loadIconsOnDemand(): void {
  Icons.setLoaderOptions({ loader: loadIcon });
}
