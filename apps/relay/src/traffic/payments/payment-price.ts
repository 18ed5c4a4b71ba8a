import { PaymentTerms } from '../pipeline/payment-events';
import { atomicToDecimal } from './payment-amounts';
import { Offer } from './x402-messages';

type FindDefaultAsset = (asset: string, network: string) => { decimals: number } | undefined;

let defaultAssets: Promise<FindDefaultAsset> | undefined;

/** The official USD-pegged asset table (@x402/evm), loaded when the first payment is priced. */
function findDefaultAsset(): Promise<FindDefaultAsset> {
  defaultAssets ??= import('@x402/evm').then(
    (evm) => evm.findDefaultAsset as unknown as FindDefaultAsset,
  );
  return defaultAssets;
}

/**
 * payments.md PY7: USD is the asset's amount, USD-pegged assets 1:1: the decimals the payee states
 * (`extra.decimals`), else the official table's; an asset neither names cannot be priced.
 */
export async function decimalsOf(offer: Offer): Promise<number | undefined> {
  const stated = offer.extra?.decimals;
  if (typeof stated === 'number' && Number.isInteger(stated) && stated >= 0 && stated <= 36) {
    return stated;
  }
  try {
    return (await findDefaultAsset())(offer.asset, offer.network)?.decimals;
  } catch {
    return undefined;
  }
}

/** An offer as `details.payment`, or why it cannot be priced in USD. */
export async function termsOf(
  offer: Offer,
  amountAtomic = offer.amountAtomic,
): Promise<PaymentTerms | string> {
  const decimals = await decimalsOf(offer);
  if (decimals === undefined || !/^\d+$/.test(amountAtomic)) {
    return `the relay cannot price ${amountAtomic} of asset ${offer.asset} on ${offer.network} in USD`;
  }
  return {
    amountUsd: atomicToDecimal(amountAtomic, decimals),
    amountAtomic,
    asset: offer.asset,
    network: offer.network,
    payTo: offer.payTo,
    scheme: offer.scheme,
    ...(offer.description ? { description: offer.description } : {}),
    ...(offer.resource ? { resource: offer.resource } : {}),
  };
}
