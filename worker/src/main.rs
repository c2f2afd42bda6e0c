// mimalloc, not the system's malloc: glibc's malloc and free were a fifth of the worker's CPU in a
// drain of no-op jobs (docs/benchmarks.md, "Background jobs"); with mimalloc the process's CPU
// per job went from 15-21 to 13-14 us. It costs memory: 25 MiB resident at idle, not 14. The
// benchmarks that run the worker in their process use it too; the api and the scheduler, whose
// work is not allocation-bound, keep the system's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use domain::env::Env;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let config = worker::Config::from_env(&Env::from_os())?;
    domain::telemetry::init(&config.telemetry);
    worker::run(config, domain::shutdown_signal()).await
}
