/** The ICPC feature's public entry: the code list and its search. */
export { icpcCodesQueryOptions, useIcpcCodes } from './api'
export { icpcId, searchIcpc, type IcpcCode } from './search'
