use api::config::Config;
use domain::env::Env;

const USAGE: &str = "usage: api [serve|all|migrate|audit-verify|icpc-import FILE]\n  audit-verify  check the audit log's hash chain (exit 1 when an entry was changed, removed or slipped in)\n  serve    run the api (default)\n  all      run the api, a worker and the scheduler in one process\n  icpc-import FILE  replace the ICPC list with a licensed table (code;patient title;official title per line)\n  migrate  apply the database migrations and exit";

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let command = std::env::args().nth(1).unwrap_or_else(|| "serve".to_owned());
    if matches!(command.as_str(), "-h" | "--help" | "help") {
        println!("{USAGE}");
        return Ok(());
    }
    let env = Env::from_os();
    let config = Config::from_env(&env)?;
    domain::telemetry::init(&config.telemetry);
    match command.as_str() {
        "serve" => api::serve(config, domain::shutdown_signal()).await,
        "all" => {
            // the api serves health and metrics for all three
            let worker = worker::Config { http_addr: None, ..worker::Config::from_env(&env)? };
            let scheduler = scheduler::Config { http_addr: None, ..scheduler::Config::from_env(&env)? };
            api::serve_all(config, worker, scheduler, domain::shutdown_signal()).await
        }
        "migrate" => {
            api::connect_and_migrate(&config).await?;
            tracing::info!("migrations applied");
            Ok(())
        }
        "audit-verify" => {
            let pool = api::connect_and_migrate(&config).await?;
            match domain::audit::verify(&pool).await? {
                domain::audit::Verified::Intact(n) => {
                    println!("audit log intact: {n} entries");
                    Ok(())
                }
                domain::audit::Verified::Broken { id, reason } => {
                    eprintln!("audit log broken at entry {id}: {reason}");
                    std::process::exit(1);
                }
            }
        }
        "icpc-import" => {
            let file = std::env::args().nth(2).ok_or_else(|| anyhow::anyhow!("{USAGE}"))?;
            let text = std::fs::read_to_string(&file).map_err(|e| anyhow::anyhow!("{file}: {e}"))?;
            let codes = domain::icpc::parse_import(&text).map_err(|e| anyhow::anyhow!("{file}: {e}"))?;
            let pool = api::connect_and_migrate(&config).await?;
            domain::icpc::import(&pool, &codes).await?;
            tracing::info!(codes = codes.len(), "ICPC list replaced");
            Ok(())
        }
        other => anyhow::bail!("unknown command {other:?}\n{USAGE}"),
    }
}
