import 'reflect-metadata';
import { measureTickSpeed } from '../monitors-speed';
void measureTickSpeed('postgresql://postgres@127.0.0.1:5432/' + process.argv[2]);
