use api::config::Config;
use domain::env::Env;

const USAGE: &str = "usage: api [serve|migrate]\n  serve    run the api (default)\n  migrate  apply the database migrations and exit";

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let command = std::env::args().nth(1).unwrap_or_else(|| "serve".to_owned());
    if matches!(command.as_str(), "-h" | "--help" | "help") {
        println!("{USAGE}");
        return Ok(());
    }
    let config = Config::from_env(&Env::from_os())?;
    domain::telemetry::init(&config.telemetry);
    match command.as_str() {
        "serve" => api::serve(config, domain::shutdown_signal()).await,
        "migrate" => {
            api::connect_and_migrate(&config).await?;
            tracing::info!("migrations applied");
            Ok(())
        }
        other => anyhow::bail!("unknown command {other:?}\n{USAGE}"),
    }
}
