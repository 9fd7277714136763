import { Icons, IconSize, type IconName, type IconPaths } from '@blueprintjs/icons';

/**
 * Blueprint's default loader fetches all icons of a size in one ~100 KB chunk the moment any icon renders.
 * The icons this console names get a tiny chunk each instead, so a screen downloads only what it shows; any
 * other name still works through Blueprint's own loader. (Blueprint's components bundle their own icons.)
 */
const paths16 = import.meta.glob<IconPaths>(
  '../../../node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/{arrow-left,arrow-right,bank-account,build,chat,cog,dashboard,database,document,edit,error,exchange,export,hand,home,info-sign,log-out,menu,notifications,office,pause,people,person,play,plus,predictive-analysis,pulse,search,send-message,swap-horizontal,timeline-line-chart,trash,trending-up,warning-sign}.js',
  { import: 'default' },
);
const paths20 = import.meta.glob<IconPaths>(
  '../../../node_modules/@blueprintjs/icons/lib/esm/generated/20px/paths/{bank-account,build,chat,error,hand,home,info-sign,people,predictive-analysis,search,warning-sign}.js',
  { import: 'default' },
);

function find(table: Record<string, () => Promise<IconPaths>>, name: string) {
  const key = Object.keys(table).find((path) => path.endsWith(`/${name}.js`));
  return key ? table[key] : undefined;
}

async function loadIcon(name: IconName, size: IconSize): Promise<IconPaths> {
  const load = find(size === IconSize.STANDARD ? paths16 : paths20, name);
  if (load) return load();
  const { splitPathsBySizeLoader } = await import('@blueprintjs/icons/lib/esm/paths-loaders/splitPathsBySizeLoader');
  return splitPathsBySizeLoader(name, size);
}

export function loadIconsOnDemand(): void {
  Icons.setLoaderOptions({ loader: loadIcon });
}
